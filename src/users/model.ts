// Input shapes for accounts.

export interface CreateUserInput {
  email: string;
  username?: string;
  password?: string;
  fullName?: string;
  admin?: boolean;
}

/** InvenioRDM's username rule: a letter, then letters, digits, `-` or `_`; 3 to 255 characters. */
export const USERNAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_-]{2,254}$/;
// Deliberately loose (RFC 5322 is not a regex); the point is to catch obvious typos.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$|^[^\s@]+@localhost$/;
export const MIN_PASSWORD_LENGTH = 8;
