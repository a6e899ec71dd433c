// Administration → Mail: the outbox (pending, sent, failed with the SMTP server's answer), searched
// and paged; one message with its text; "Resend" (after a confirmation step) and "Send a test mail".
import type { FieldError } from "../../core/errors";
import type { OutboxMessage } from "../../mail/service";
import { CsrfField, TextField } from "../forms";
import type { Child } from "../jsx-runtime";
import type { PageContext } from "../layout";
import { DataTable } from "../table";
import { AdminPage, AnyOf, Facts, AdminPager, ConfirmStep, queryOf, TableBox, when } from "./frame";

export const MAIL = "/administration/mail";

const STATUS_LABELS: Record<string, string> = { pending: "Pending", sent: "Sent", failed: "Failed" };

export interface OutboxFilters {
  status: string;
  q: string;
}

const statusText = (m: OutboxMessage) => (m.status === "sent" ? `Sent ${when(m.sentAt)}` : m.givenUp ? "Failed, given up" : (STATUS_LABELS[m.status] ?? m.status));

function FilterForm({ filters }: { filters: OutboxFilters }) {
  return (
    <form class="card filters" method="get" action={MAIL} role="search" aria-label="Outbox">
      <label for="mail-q">Recipient, subject or topic</label>
      <input id="mail-q" name="q" type="search" value={filters.q} maxlength={200} />
      <label for="mail-status">Status</label>
      <AnyOf id="mail-status" name="status" value={filters.status} choices={STATUS_LABELS} />
      <div class="actions">
        <button type="submit">Search the outbox</button>
      </div>
    </form>
  );
}

function TestMailForm({ ctx, to, errors }: { ctx: PageContext; to: string; errors?: FieldError[] }) {
  return (
    <form class="card" method="post" action={`${MAIL}/test`} aria-labelledby="test-mail">
      <h2 id="test-mail">Send a test mail</h2>
      <CsrfField ctx={ctx} />
      <TextField field="to" label="To" type="email" value={to} errors={errors} required maxlength={254} autocomplete="email" />
      <div class="actions">
        <button type="submit">Send a test mail</button>
      </div>
    </form>
  );
}

export function OutboxPage(props: {
  ctx: PageContext;
  mailOff: boolean;
  filters: OutboxFilters;
  result: { messages: OutboxMessage[]; total: number; page: number; size: number };
  testTo: string;
  errors?: FieldError[];
}) {
  const { ctx, filters, result } = props;
  return (
    <AdminPage ctx={ctx} title="Mail" screen={MAIL} mailOff={props.mailOff}>
      {props.errors ? (
        <p class="notice error" role="alert">
          The test mail was not sent: see the message below.
        </p>
      ) : null}
      <TestMailForm ctx={ctx} to={props.testTo} errors={props.errors} />
      <section aria-labelledby="outbox">
        <h2 id="outbox">Outbox</h2>
        <FilterForm filters={filters} />
        {result.messages.length === 0 ? (
          <p class="muted">No messages{filters.q || filters.status ? " match" : " yet"}.</p>
        ) : (
          <TableBox label="Table of outbox messages">
            <DataTable caption="Outbox messages, newest first" columns={["Message", "To", "Queued", "Status", "Attempts", "Last error"]}>
              {result.messages.map((m) => (
                <tr data-mail-id={String(m.id)}>
                  <th scope="row">
                    <a href={`${MAIL}/${m.id}`}>{m.subject}</a>
                  </th>
                  <td>{m.recipient}</td>
                  <td>{when(m.created)}</td>
                  <td>{statusText(m)}</td>
                  <td>{String(m.attempts)}</td>
                  <td class="error-text">{m.lastError ?? "—"}</td>
                </tr>
              ))}
            </DataTable>
          </TableBox>
        )}
        <AdminPager page={result.page} size={result.size} total={result.total} href={(page) => MAIL + queryOf({ ...filters, page: page === 1 ? null : page })} />
      </section>
    </AdminPage>
  );
}

function MessageFacts({ message }: { message: OutboxMessage }) {
  // The topic is the outbox's key for what the mail is about (`request:<id>`), what the filter above takes: code to copy.
  const facts: [string, Child][] = [
    ["To", message.recipient],
    ["Subject", message.subject],
    ["Topic", message.topic ? <code>{message.topic}</code> : "—"],
    ["Queued", when(message.created)],
    ["Status", statusText(message)],
    ["Attempts", String(message.attempts)],
    ["The SMTP server's answer", message.lastError ?? "—"],
  ];
  return <Facts facts={facts} />;
}

export function MessagePage({ ctx, mailOff, message, notice }: { ctx: PageContext; mailOff: boolean; message: OutboxMessage; notice?: string }) {
  return (
    <AdminPage ctx={ctx} title={`Message ${message.id}`} screen={MAIL} mailOff={mailOff} notice={notice}>
      <p>
        <a href={MAIL}>Back to the outbox</a>
      </p>
      <MessageFacts message={message} />
      {message.status === "sent" ? null : (
        <p>
          <a class="button" href={`${MAIL}/${message.id}/resend`}>
            Resend
          </a>
        </p>
      )}
      <h2>Text</h2>
      <pre class="mail-body">{message.body}</pre>
    </AdminPage>
  );
}

export function ResendPage({ ctx, mailOff, message }: { ctx: PageContext; mailOff: boolean; message: OutboxMessage }) {
  return (
    <AdminPage ctx={ctx} title={`Resend message ${message.id}`} screen={MAIL} mailOff={mailOff}>
      <ConfirmStep
        ctx={ctx}
        action={`${MAIL}/${message.id}/resend`}
        question={`Resend “${message.subject}” to ${message.recipient}?`}
        detail={
          <p>
            Its attempts start again from none and it is sent at once{mailOff ? " (or, while mail is off, as soon as MAIL_SERVER is set)" : ""}. If an earlier attempt did reach the
            person, they get it twice.
          </p>
        }
        button="Resend"
        back={`${MAIL}/${message.id}`}
      />
    </AdminPage>
  );
}
