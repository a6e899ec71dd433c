// What every service is built from.
import type { Config } from "../config";
import type { Db } from "../db/sqlite/connection";
import type { Links } from "./links";
import type { Clock } from "./time";

export interface Deps {
  db: Db;
  clock: Clock;
  config: Config;
  links: Links;
}
