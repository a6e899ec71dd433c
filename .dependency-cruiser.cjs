// The import rules of the design ("Dependencies run one way"), checked by `npm run deps:check`
// (dependency-cruiser) in CI: no circles, shared layers never import feature areas, no area reads
// another's store, pages reach services only, and within an area nothing imports back up its layers.
const FEATURES =
  "(access|access-requests|accounts|admin|audit|backup|cli|communities|curation|docs|exports|files|groups|iiif|mail|members|moderation|oai|pages|pids|quotas|rate-limits|record-requests|records|requests|server|sessions|stats|tokens|users|vocabularies)";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle (type-only ones too) means two files own one thing between them.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "shared-layers-know-no-feature",
      severity: "error",
      comment: "core/, db/, search/, storage/ and jobs/ are feature-free: an area depends on them, never the reverse.",
      from: { path: "^src/(core|db|search|storage|jobs)/" },
      to: { path: `^src/${FEATURES}/` },
    },
    {
      name: "only-entry-points-import-the-app",
      severity: "error",
      comment: "app.ts wires every area; only the entry points (main, server, cli) may import it.",
      from: { path: "^src/", pathNot: "^src/(main\\.ts|server/|cli/)" },
      to: { path: "^src/app\\.ts$" },
    },
    {
      name: "no-foreign-store",
      severity: "error",
      comment: "An area's store is its own: others ask its service, directory or writer (handed over in app.ts).",
      from: { path: `^src/([^/]+)/` },
      to: { path: "^src/([^/]+)/store\\.ts$", pathNot: "^src/$1/store\\.ts$" },
    },
    {
      name: "pages-use-services-not-rules",
      severity: "error",
      comment: "Pages are a client of the services: what they may show comes from the services' answers, not a policy or a store.",
      from: { path: "^src/pages/" },
      to: { path: `^src/${FEATURES}/(policy|store)\\.ts$` },
    },
    {
      name: "store-imports-no-upper-layer",
      severity: "error",
      comment: "main/app -> routes -> service -> store -> db: a store never imports a service or routes.",
      from: { path: "^src/[^/]+/store\\.ts$" },
      to: { path: "^src/[^/]+/(service|routes)\\.tsx?$" },
    },
    {
      name: "no-value-import-of-routes",
      severity: "error",
      comment: "Routes are the top of an area: only app.ts (and pages' own route files) mount them.",
      from: { path: "^src/", pathNot: "^src/(app\\.ts|pages/)" },
      to: { path: "^src/[^/]+/routes\\.tsx?$", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.(sql|json)$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js"] },
  },
};
