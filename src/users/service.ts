// Accounts: creating and listing users.
import { requireAdmin, type Actor } from "../core/actor";
import type { Deps } from "../core/deps";
import { validationError, type FieldError } from "../core/errors";
import { EMAIL_PATTERN, MIN_PASSWORD_LENGTH, USERNAME_PATTERN, type CreateUserInput } from "./model";
import * as store from "./store";

export type UsersService = ReturnType<typeof createUsersService>;

export function createUsersService(deps: Deps) {
  const { db, clock } = deps;

  function checkNewUser(input: CreateUserInput): FieldError[] {
    const errors: FieldError[] = [];
    const email = input.email?.trim() ?? "";
    if (!EMAIL_PATTERN.test(email)) errors.push({ field: "email", messages: ["Not a valid e-mail address."] });
    else if (store.findUserByEmail(db, email)) errors.push({ field: "email", messages: ["This e-mail address is already registered."] });
    if (input.username !== undefined) {
      if (!USERNAME_PATTERN.test(input.username)) {
        errors.push({ field: "username", messages: ["A username starts with a letter and has 3 or more letters, digits, '-' or '_'."] });
      } else if (store.findUserByUsername(db, input.username)) {
        errors.push({ field: "username", messages: ["This username is already taken."] });
      }
    }
    if (input.password !== undefined && input.password.length < MIN_PASSWORD_LENGTH) {
      errors.push({ field: "password", messages: [`A password has at least ${MIN_PASSWORD_LENGTH} characters.`] });
    }
    return errors;
  }

  return {
    async createUser(actor: Actor, input: CreateUserInput) {
      requireAdmin(actor);
      const errors = checkNewUser(input);
      if (errors.length) throw validationError(errors);
      const passwordHash = input.password ? await Bun.password.hash(input.password) : null;
      const now = clock.now();
      return store.insertUser(db, {
        email: input.email.trim(),
        username: input.username ?? null,
        passwordHash,
        fullName: input.fullName ?? "",
        isAdmin: Boolean(input.admin),
        confirmedAt: now,
        created: now,
        updated: now,
      });
    },

    listUsers(actor: Actor) {
      requireAdmin(actor);
      return store.listUsers(db);
    },

    /** For the CLI and services that address people by e-mail. */
    findUserByEmail(actor: Actor, email: string) {
      requireAdmin(actor);
      return store.findUserByEmail(db, email) ?? null;
    },

    findUserById: (id: number) => store.findUserById(db, id) ?? null,

    countAdmins: () => store.countAdmins(db),

    async checkPassword(email: string, password: string) {
      const user = store.findUserByEmail(db, email);
      if (!user?.passwordHash || !user.active) return null;
      return (await Bun.password.verify(password, user.passwordHash)) ? user : null;
    },
  };
}
