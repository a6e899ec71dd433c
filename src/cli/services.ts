// Opens the data directory's services for one CLI command and closes them afterwards.
import { createServices, type Services } from "../app";
import { systemActor } from "../core/actor";
import { prepareDataDir } from "../server/data-dir";
import { configFrom, UsageError } from "./args";

export async function withServices<T>(values: Record<string, unknown>, work: (services: Services) => T | Promise<T>): Promise<T> {
  const config = configFrom(values);
  // Whatever the command creates (the database on a first run) is private, as the server's is.
  prepareDataDir(config.DATA_DIR);
  const services = createServices({ config });
  try {
    // A failure to load the shipped vocabularies fails the command, before it does anything.
    await services.ready;
    return await work(services);
  } finally {
    await services.close();
  }
}

/** The user with this e-mail, or a UsageError naming it. */
export async function userByEmail(services: Services, email: string) {
  const user = await services.users.findUserByEmail(systemActor, email);
  if (!user) throw new UsageError(`no user with e-mail ${email}`);
  return user;
}
