// Small form parts every signed-in page uses: the session's CSRF field, and a button that posts.
import type { PageContext } from "./layout";

/** The session's CSRF token, which every signed-in form carries (pages/http.ts checkCsrf). */
export const CsrfField = ({ ctx }: { ctx: PageContext }) => <input type="hidden" name="csrf" value={ctx.actor.csrf ?? ""} />;

/** A one-button form posting to `action`, with the CSRF field. */
export function PostButton({ ctx, action, label, secondary = false }: { ctx: PageContext; action: string; label: string; secondary?: boolean }) {
  return (
    <form method="post" action={action}>
      <CsrfField ctx={ctx} />
      <button type="submit" class={secondary ? "secondary" : undefined}>
        {label}
      </button>
    </form>
  );
}

/** Edit a published record, or start a new version of it (the deposit pages' routes). */
export const EditButtons = ({ ctx, id }: { ctx: PageContext; id: string }) => (
  <div class="actions">
    <PostButton ctx={ctx} action={`/uploads/${id}/edit`} label="Edit" />
    <PostButton ctx={ctx} action={`/uploads/${id}/new-version`} label="New version" secondary />
  </div>
);
