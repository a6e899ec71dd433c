// What every service is built from.
import type { Config } from "../config";
import type { DatabasePort } from "../db/port";
import type { Links } from "./links";
import type { Clock } from "./time";

export interface Deps {
  db: DatabasePort;
  clock: Clock;
  config: Config;
  links: Links;
}
