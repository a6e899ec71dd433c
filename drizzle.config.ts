// drizzle-kit: `bun run db:generate` writes SQL migrations into src/db/sqlite/migrations/.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/tables/index.ts",
  out: "./src/db/sqlite/migrations",
});
