// Which methods an app serves on a path: turns a bare 404 into a 405 with `Allow`.

interface RouteLike {
  method: string;
  path: string;
}

function toPattern(path: string): RegExp {
  const body = path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg === "*" ? ".*" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${body}/?$`);
}

export function createRoutesIndex(routes: () => RouteLike[]) {
  let compiled: { method: string; pattern: RegExp }[] | null = null;
  return {
    /** Methods served on `pathname` (with HEAD for GET), sorted; empty when the path is unknown. */
    allowedMethods(pathname: string): string[] {
      compiled ??= routes().map((r) => ({ method: r.method.toUpperCase(), pattern: toPattern(r.path) }));
      const methods = new Set<string>();
      for (const r of compiled) {
        if (r.method === "ALL" || !r.pattern.test(pathname)) continue;
        methods.add(r.method);
        if (r.method === "GET") methods.add("HEAD");
      }
      return [...methods].sort();
    },
  };
}
