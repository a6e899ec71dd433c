// An OpenID Connect provider for the tests: `oidc-provider` (OpenID-certified, an independent
// implementation) listening on 127.0.0.1, with the people it knows, one client per Cairn provider
// configuration, and a hook on its token endpoint that can tamper with the ID token it answers
// (as a malicious proxy or a misbehaving provider would), re-signing with the provider's own key
// where the attack needs a valid signature. `signInAtProvider` is the browser: it follows the
// provider's redirects and submits its (devInteractions) login and consent pages.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface Person {
  email?: string;
  email_verified?: boolean;
  name?: string;
  /** The `groups` claim (scope `groups`), as an institution's directory would list the person's groups. */
  groups?: string[];
}

export interface ClientSpec {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

const b64url = (bytes: Uint8Array | ArrayBuffer) => Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString("base64url");
const decodePart = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;

export async function startOidcProvider(clients: ClientSpec[]) {
  const keyPair = (await crypto.subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", keyPair.privateKey)) as Record<string, unknown>;
  delete jwk.key_ops;
  delete jwk.ext;
  Object.assign(jwk, { kid: "test-signing-key", alg: "RS256", use: "sig" });

  const people = new Map<string, Person>();
  const state = {
    /** Seconds an ID token lives (the provider's clock: the system's). */
    idTokenTtl: 3600,
    /** Rewrites the token endpoint's id_token before it is sent; null: untouched. */
    tamper: null as null | ((idToken: string) => string | Promise<string>),
    /** Token requests answered (to see that a refused callback never reached the provider, or did). */
    tokenRequests: 0,
  };

  let handler: (req: any, res: any) => void = (_req, res) => res.end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({ ...c, grant_types: ["authorization_code"], response_types: ["code"] })),
    jwks: { keys: [jwk as any] },
    cookies: { keys: ["oidc-provider-test-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    features: { devInteractions: { enabled: true } },
    ttl: { IdToken: () => state.idTokenTtl, AccessToken: 3600, AuthorizationCode: 600, Interaction: 3600, Session: 3600, Grant: 3600 },
    findAccount: async (_ctx: unknown, sub: string) => {
      const person = people.get(sub);
      if (!person) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...person }) };
    },
  } as any);
  // A post-middleware on the token endpoint: what a tampering proxy between Cairn and the provider could do.
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    await next();
    if (ctx.path === "/token") {
      state.tokenRequests++;
      if (state.tamper && ctx.status === 200 && ctx.body?.id_token) ctx.body = { ...ctx.body, id_token: await state.tamper(ctx.body.id_token) };
    }
  });
  handler = provider.callback();

  /** The ID token with its claims changed by `change`, signed again with the provider's own key (a token the provider could have issued). */
  async function resign(idToken: string, change: (claims: Record<string, unknown>) => void): Promise<string> {
    const [header, payload] = idToken.split(".");
    const claims = decodePart(payload!);
    change(claims);
    const input = `${header}.${b64url(new TextEncoder().encode(JSON.stringify(claims)))}`;
    const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", keyPair.privateKey, new TextEncoder().encode(input));
    return `${input}.${b64url(signature)}`;
  }

  /** The ID token with one byte of its signature changed (its claims untouched). */
  function breakSignature(idToken: string): string {
    const [header, payload, signature] = idToken.split(".");
    const bytes = Buffer.from(signature!, "base64url");
    bytes[10] = bytes[10]! ^ 0x01;
    return `${header}.${payload}.${bytes.toString("base64url")}`;
  }

  return {
    issuer,
    people,
    state,
    resign,
    breakSignature,
    decode: (idToken: string) => decodePart(idToken.split(".")[1]!),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestOidcProvider = Awaited<ReturnType<typeof startOidcProvider>>;

/** The cookies a browser keeps for the provider (paths ignored: the provider's own cookies do not collide). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && new Date(a.split("=")[1]!).getTime() < Date.now()));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(eq + 1).trim());
    }
    return res;
  }
}

/**
 * A browser at the provider: opens `authorizationUrl`, follows the provider's redirects, signs in
 * as `login` on its login page and accepts its consent page (submitting the forms the pages show),
 * until the provider sends the browser back to `returnTo`; answers that URL (code, state, iss).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, returnTo: string, jar = new CookieJar()): Promise<URL> {
  let url = authorizationUrl;
  for (let step = 0; step < 12; step++) {
    const res = await jar.fetch(url);
    const location = res.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(returnTo)) return next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status}: ${html.slice(0, 500)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no login or consent form on the provider's page: ${html.slice(0, 500)}`);
    const form: Record<string, string> = prompt === "login" ? { prompt, login, password: "any password" } : { prompt };
    const posted = await jar.fetch(new URL(action.replace(/&amp;/g, "&"), url).href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });
    const after = posted.headers.get("location");
    if (!after) throw new Error(`the provider's ${prompt} form answered ${posted.status}: ${(await posted.text()).slice(0, 500)}`);
    url = new URL(after, url).href;
    if (url.startsWith(returnTo)) return new URL(url);
  }
  throw new Error("the provider never sent the browser back");
}
