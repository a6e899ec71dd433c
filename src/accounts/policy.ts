// Who may make an account: the sign-up switch and the institution's e-mail domains.

/**
 * Why sign-up refuses this address, or null: with ACCOUNTS_REGISTER_ALLOWED_DOMAINS set, its domain
 * must be one of them or a subdomain of one (uni.example takes dept.uni.example), letter case aside.
 */
export function allowedDomainError(email: string, allowed: readonly string[]): string | null {
  if (allowed.length === 0) return null;
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  const ok = allowed.some((d) => {
    const wanted = d.trim().toLowerCase().replace(/^@/, "");
    return domain === wanted || domain.endsWith(`.${wanted}`);
  });
  return ok ? null : `Sign-up is open to addresses at ${allowed.join(", ")} only.`;
}
