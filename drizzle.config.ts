// drizzle-kit: `bun run db:generate` writes SQL migrations into src/db/migrations/.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/tables/index.ts",
  out: "./src/db/migrations",
});
