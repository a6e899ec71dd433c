// `npm run lint`: the checks the compiler does not make about Promises. Every store and service is
// asynchronous (issue 30): a call whose Promise nobody awaits is a write that may land after its
// response, or a condition that is always true.
import tseslint from "typescript-eslint";

export default tseslint.config({
  files: ["src/**/*.ts", "src/**/*.tsx"],
  ignores: ["src/pages/static/**"],
  languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  plugins: { "@typescript-eslint": tseslint.plugin },
  rules: {
    "@typescript-eslint/no-floating-promises": "error",
    "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
    "@typescript-eslint/await-thenable": "error",
  },
});
