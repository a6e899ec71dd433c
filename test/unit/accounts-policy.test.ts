// The pure rules of local accounts: which e-mail domains sign-up takes (allowedDomainError) and
// how an ORCID iD typed into the profile is checked and kept (normalOrcid).
import { describe, expect, test } from "bun:test";
import { allowedDomainError } from "../../src/accounts/policy";
import { normalOrcid } from "../../src/users/service";

describe("allowedDomainError", () => {
  test("no domains configured: every address", () => {
    expect(allowedDomainError("anyone@anywhere.example", [])).toBeNull();
  });

  const allowed = ["uni.example", "lab.example"];
  test.each([["a@uni.example"], ["a@lab.example"], ["a@dept.uni.example"], ["a@x.y.dept.uni.example"], ["A@UNI.EXAMPLE"], ["a@Dept.Uni.Example"]])("%s is taken", (email) => {
    expect(allowedDomainError(email, allowed)).toBeNull();
  });

  test.each([["a@evil-uni.example"], ["a@notuni.example"], ["a@uni.example.evil.net"], ["a@example"], ["a@uni.examples"], ["uni.example@evil.net"]])(
    "%s is refused, naming the domains",
    (email) => {
      expect(allowedDomainError(email, allowed)).toBe("Sign-up is open to addresses at uni.example, lab.example only.");
    },
  );

  test("configured domains are read without letter case, spaces or a leading @", () => {
    expect(allowedDomainError("a@uni.example", [" Uni.EXAMPLE "])).toBeNull();
    expect(allowedDomainError("a@dept.uni.example", ["@uni.example"])).toBeNull();
    expect(allowedDomainError("a@other.example", ["@uni.example"])).not.toBeNull();
  });
});

describe("normalOrcid", () => {
  test.each([
    ["0000-0002-1825-0097", "0000-0002-1825-0097"],
    ["0000000218250097", "0000-0002-1825-0097"],
    ["0000 0002 1825 0097", "0000-0002-1825-0097"],
    ["  0000-0002-1825-0097  ", "0000-0002-1825-0097"],
    ["https://orcid.org/0000-0002-1825-0097", "0000-0002-1825-0097"],
    ["http://orcid.org/0000-0002-1825-0097", "0000-0002-1825-0097"],
    ["HTTPS://ORCID.ORG/0000-0002-1825-0097", "0000-0002-1825-0097"],
    // A check character of 10 is written X, either case accepted, kept upper case.
    ["0000-0002-1694-233x", "0000-0002-1694-233X"],
    ["0000-0002-1694-233X", "0000-0002-1694-233X"],
  ])("%p -> %p", (value, expected) => {
    expect(normalOrcid(value)).toBe(expected);
  });

  test.each([[""], ["   "]])("%p: none (the profile's iD removed)", (value) => {
    expect(normalOrcid(value)).toBe("");
  });

  test.each([
    // A wrong check digit.
    ["0000-0002-1825-0098"],
    ["0000-0002-1694-2330"],
    // A valid ISNI outside ORCID's blocks.
    ["0000-0001-2281-955X"],
    // Too short, too long, not digits, another site's URL.
    ["0000-0002-1825-009"],
    ["0000-0002-1825-00970"],
    ["abcd-efgh-ijkl-mnop"],
    ["https://example.org/0000-0002-1825-0097"],
  ])("%p: not an ORCID iD", (value) => {
    expect(normalOrcid(value)).toBe(false);
  });
});
