// The mail of access requests: the guest's verification link, and the texts the two request types
// send (the owner hears of a new request naming the record; the requester of the answer: the
// access and its end, or for a guest the secret link). A secret link's token exists in clear only
// between the accept hook and this mail: the hook returns it to the engine, which hands it to this
// text (`outcome`), and it is kept nowhere but in the mail to the guest (the outbox row until it is sent).
import type { HookOutcome, MailText, NotificationContext } from "../requests/request-type";
import { expiryDate } from "../access/present";
import { payloadOf } from "./model";

/** What an accept hook returns for the `accepted` mail of the same action. */
export type AccessGiven = {
  expiresAt: number | null;
  /** A guest's secret-link token. */
  token?: string;
};

/** The accept hook's AccessGiven, or undefined for events without one. */
function givenOf(outcome: HookOutcome | undefined): AccessGiven | undefined {
  if (!outcome) return undefined;
  return { expiresAt: typeof outcome.expiresAt === "number" ? outcome.expiresAt : null, token: typeof outcome.token === "string" ? outcome.token : undefined };
}

const until = (expiresAt: number | null) => (expiresAt === null ? " with no end date" : ` until ${expiryDate(expiresAt)} (UTC)`);

/** The verification a guest gets after asking (single use, valid 6 hours). */
export function verificationMail(input: { siteName: string; recordTitle: string; link: string; fullName: string }): MailText {
  const hello = input.fullName ? `Dear ${input.fullName},` : "Hello,";
  return {
    subject: `[${input.siteName}] Confirm your access request for "${input.recordTitle}"`,
    body:
      `${hello}\n\nSomeone, hopefully you, asked for access to the files of "${input.recordTitle}" with this e-mail address.\n\n` +
      `Confirm the request by opening this link within 6 hours (it works once):\n${input.link}\n\n` +
      `The record's owner then decides. If you did not ask, ignore this message.\n`,
  };
}

/** The texts of user- and guest-access-requests; other events keep the engine's text (undefined). */
export function accessRequestText(n: NotificationContext, kind: "user" | "guest"): MailText | undefined {
  const p = payloadOf(n.request.payload);
  const title = p.record_title ? `"${p.record_title}"` : `the record of request #${n.request.number}`;
  const site = `[${n.siteName}]`;
  const comment = n.comment ? `\n\n${n.event === "submitted" ? "Their message" : "Comment"}:\n${n.comment}` : "";
  switch (n.event) {
    case "submitted": {
      const who = kind === "guest" ? `${p.full_name || "A guest"} <${p.email}>` : `${n.actorName} <${p.email}>`;
      const consent =
        kind === "guest"
          ? p.consent_to_share_personal_data === "true"
            ? "\n\nThey agree to share their name and e-mail address with you."
            : "\n\nThey did not agree to their name and e-mail address being shared beyond this request."
          : "";
      return {
        subject: `${site} Access request for ${title}`,
        body: `${who} asks for access to the restricted files of ${title}.${comment}${consent}\n\nAccept or decline the request: ${n.url}\n`,
      };
    }
    case "accepted": {
      const given = givenOf(n.outcome);
      const subject = `${site} Access granted to ${title}`;
      const lead = `${n.actorName} accepted your request for access to the files of ${title}.${comment}`;
      if (kind === "user") {
        const end = given ? `\n\nYou now have access${until(given.expiresAt)}.` : "";
        return { subject, body: `${lead}${end}\n\nThe record: ${p.record_url}\nThe request: ${n.url}\n` };
      }
      if (!given?.token) return { subject, body: `${lead}\n\nThe secret link could not be included in this message: please ask the record's owner for it.\n` };
      return {
        subject,
        body:
          `${lead}\n\nOpen the record with this secret link, valid${until(given.expiresAt)}:\n${p.record_url}?token=${given.token}\n\n` +
          `The same for scripts, through the API:\n${p.record_api_url}?token=${given.token}\n\n` +
          `Keep the link to yourself: whoever has it sees the files.\n`,
      };
    }
    case "declined": {
      const see = kind === "user" ? `\n\nThe request: ${n.url}` : "";
      return {
        subject: `${site} Access request declined: ${title}`,
        body: `${n.actorName} declined your request for access to the files of ${title}.${comment}${see}\n`,
      };
    }
    default:
      return undefined;
  }
}
