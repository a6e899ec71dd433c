// `npm run lint`: the checks the compiler does not make about Promises. Every store and service is
// asynchronous (issue 30): a call whose Promise nobody awaits is a write that may land after its
// response, or a condition that is always true.
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    files: ["src/**/*.ts", "src/**/*.tsx", "bench/**/*.ts", "test/**/*.ts", "scripts/**/*.ts", "*.ts"],
    ignores: ["src/pages/static/**"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // scripts/ is outside tsconfig.json's "include": its files get the default project (tsconfig.json's options).
        projectService: { allowDefaultProject: ["scripts/*.ts"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    // Tests and benches await helpers that may answer either way (a value or a Promise): harmless there.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/await-thenable": "off" },
  },
);
