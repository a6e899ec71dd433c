// The deposit form, a client of the REST API as InvenioRDM's is: it builds the draft's JSON from
// the form, saves it (POST /api/records, then PUT .../draft) showing the lenient save's `errors`
// beside their fields, and reserves a DOI, submits for review, publishes and deletes. Rows and
// look-ups come from deposit-fields.js, the uploads from deposit-files.js.
(function () {
  "use strict";
  const form = document.getElementById("deposit");
  if (!form) return;
  const { h, api, problem, renumber } = window.cairnDeposit;
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("deposit-data").textContent);
  const state = { draft: data.draft, id: data.draft ? data.draft.id : null, entries: new Map(), queue: Promise.resolve(true), uploading: 0 };
  const draftApi = (suffix) => `/api/records/${encodeURIComponent(state.id)}${suffix}`;
  const text = (id) => $(id).value.trim();
  const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const toHtml = (s) =>
    s
      .split(/\n{2,}/)
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
      .join("");

  function say(message, bad) {
    const status = $("deposit-status");
    status.textContent = message;
    status.className = bad ? "error" : "";
  }

  // ---- the draft's JSON and the errors of a save ----------------------------------------------

  function collect() {
    const base = state.draft || {};
    // The metadata and custom fields: deposit-metadata.js.
    const { metadata, custom_fields } = window.cairnDeposit.collectMetadata(base);
    const radio = (name) => (form.querySelector(`input[name="${name}"]:checked`) || { value: "public" }).value;
    const access = { record: radio("access-record"), files: radio("access-files") };
    const active = $("embargo-active").checked;
    if (active || text("embargo-until") || text("embargo-reason")) access.embargo = { active, until: text("embargo-until") || null, reason: text("embargo-reason") || null };
    const files = base.files || {};
    const onlyMetadata = $("metadata-only");
    return {
      access,
      files: { enabled: onlyMetadata ? !onlyMetadata.checked : files.enabled !== false, default_preview: files.default_preview || null, order: files.order || [] },
      metadata,
      custom_fields,
      pids: base.pids || {},
    };
  }

  /** Strips the "(required)" of a label: the summary names the field, the form says it is required. */
  const bare = (text) => text.replace(/\s*\((required|optional)[^)]*\)/i, "").trim();
  /** The heading of the form section holding `el` (an error no field owns is named after its section). */
  const sectionOf = (el) => {
    const section = el && el.closest("section");
    const heading = section && section.querySelector("h2");
    return heading ? { name: heading.textContent.trim(), id: heading.id } : null;
  };

  /**
   * Each error beside the field it names (the longest path that contains it) and all of them in the
   * summary, each named by its field's label or legend, never by its path. A path no field owns
   * goes to the section of the fields sharing its first part ("metadata", "access"…), else the upload.
   * Kept in `state.errors` so a cause that goes away (files uploaded) takes its error along (clearErrors).
   */
  function showErrors(errors, heading) {
    state.errors = errors;
    state.errorHeading = heading;
    for (const el of form.querySelectorAll(".field-error")) {
      el.hidden = true;
      el.textContent = "";
    }
    for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    const box = $("deposit-errors");
    box.replaceChildren();
    box.hidden = !errors.length && !heading;
    if (box.hidden) return;
    renumber();
    const wrappers = [...form.querySelectorAll("[data-field]")].filter((w) => w.dataset.field);
    const items = errors.map((error) => {
      const message = (error.messages || []).join(" ");
      const path = String(error.field || "");
      const inside = wrappers.filter((w) => path === w.dataset.field || path.startsWith(`${w.dataset.field}.`));
      const wrapper = inside.sort((a, b) => b.dataset.field.length - a.dataset.field.length)[0];
      if (!wrapper) {
        const head = path.split(".")[0];
        const section = sectionOf(wrappers.find((w) => head && w.dataset.field.split(".")[0] === head));
        return h("li", {}, section ? h("a", { href: `#${section.id}` }, section.name) : "The upload", `: ${message}`);
      }
      const slot = wrapper.querySelector(":scope > .field-error");
      slot.textContent = slot.textContent ? `${slot.textContent} ${message}` : message;
      slot.hidden = false;
      const control = wrapper.querySelector("input, select, textarea");
      const leaf = !wrapper.querySelector("[data-field]");
      if (control && leaf) {
        control.setAttribute("aria-invalid", "true");
        const described = (control.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
        if (!described.includes(slot.id)) control.setAttribute("aria-describedby", [...described, slot.id].join(" "));
      }
      const label = wrapper.querySelector("label, legend, h3");
      const section = sectionOf(wrapper);
      const name = label && bare(label.textContent) ? bare(label.textContent) : section ? section.name : "The upload";
      const target = control && control.id ? `#${control.id}` : section ? `#${section.id}` : null;
      return h("li", {}, target ? h("a", { href: target }, name) : name, `: ${message}`);
    });
    box.append(h("p", {}, heading || "Please fix:"), items.length ? h("ul", {}, items) : "");
  }

  /** Takes away the errors of `path` (and below) once their cause is gone; the summary goes with the last one. */
  function clearErrors(path) {
    const errors = state.errors || [];
    const left = errors.filter((e) => e.field !== path && !String(e.field || "").startsWith(`${path}.`));
    if (left.length !== errors.length) showErrors(left, left.length ? state.errorHeading : "");
  }

  // ---- saving, publishing and the other actions -----------------------------------------------

  /** Saves now (after any save under way): creates the draft on the first save, then replaces it. */
  function save() {
    state.queue = state.queue.then(async () => {
      const body = collect();
      const res = state.id ? await api(draftApi("/draft"), { method: "PUT", json: body }) : await api("/api/records", { method: "POST", json: body });
      if (!res.ok) {
        showErrors((res.json && res.json.errors) || [], problem(res));
        say(problem(res), true);
        return false;
      }
      state.draft = res.json;
      if (!state.id) {
        state.id = res.json.id;
        history.replaceState(null, "", `/uploads/${state.id}`);
        $("delete-draft").hidden = false;
      }
      const errors = res.json.errors || [];
      showErrors(errors, errors.length ? "Saved. Before publishing, fix:" : "");
      say(errors.length ? `Draft saved, with ${errors.length} problem${errors.length > 1 ? "s" : ""} to fix before publishing.` : "Draft saved.");
      return true;
    });
    return state.queue;
  }

  /** Publish asks first, in the dialog saying what can no longer change. */
  function askPublish() {
    if (state.uploading > 0) return say("Wait until the uploads have finished.", true);
    $("publish-dialog").showModal();
  }

  async function publish() {
    $("publish-dialog").close();
    if (state.uploading > 0) return say("Wait until the uploads have finished.", true);
    if (!(await save())) return;
    say("Publishing…");
    const res = await api(draftApi("/draft/actions/publish"), { method: "POST" });
    // A draft held for moderation (a new account's first publication) stays on its deposit page, which says so.
    if (res.ok) return location.assign(`/${res.json && res.json.is_published === false ? "uploads" : "records"}/${encodeURIComponent(state.id)}`);
    showErrors((res.json && res.json.errors) || [], problem(res));
    $("deposit-errors").focus();
    say(problem(res), true);
  }

  async function reserveDoi() {
    if (!(await save())) return;
    const res = await api(draftApi("/draft/pids/doi"), { method: "POST" });
    if (!res.ok) return say(problem(res), true);
    state.draft = res.json;
    $("doi-value").textContent = `Reserved: ${res.json.pids.doi.identifier}`;
    $("reserve-doi").hidden = true;
    say("DOI reserved.");
  }

  /**
   * Shows where the draft stands with its review: open ("In review by …", its request, Cancel; no
   * Publish, Delete or other submission), else the choice of a community with `note` above it.
   */
  function showReview(review, community, note) {
    const open = Boolean(review && review.status === "submitted");
    $("review-open").hidden = !open;
    $("review-choose").hidden = open;
    $("publish").hidden = open;
    $("delete-draft").hidden = open || !state.id;
    if (open) {
      $("review-community").textContent = community;
      $("review-link").href = `/me/requests/${encodeURIComponent(review.id)}`;
      $("cancel-review").dataset.request = review.id;
    }
    if (note) $("review-status").textContent = note;
  }

  async function submitReview() {
    const community = $("community").value;
    if (!community) return showErrors([{ field: "receiver.community", messages: ["Choose a community."] }], "Choose the community to submit to.");
    if (!(await save())) return;
    let res = await api(draftApi("/draft/review"), { method: "PUT", json: { receiver: { community }, type: "community-submission" } });
    if (res.ok) {
      const message = text("review-message");
      res = await api(draftApi("/draft/actions/submit-review"), { method: "POST", json: message ? { payload: { content: toHtml(message), format: "html" } } : {} });
    }
    if (!res.ok) {
      showErrors((res.json && res.json.errors) || [], problem(res));
      return say(problem(res), true);
    }
    if (res.json.status === "accepted") return location.assign(`/records/${encodeURIComponent(state.id)}`);
    const name = $("community").selectedOptions[0].textContent.trim();
    showReview(res.json, name);
    $("review-message").value = "";
    say(`Submitted for review: the curators of ${name} decide about publishing it.`);
  }

  /** Cancels the open review (the requests API's cancel); the draft can then be published or submitted again. */
  async function cancelReview() {
    const id = $("cancel-review").dataset.request;
    if (!id || !window.confirm("Cancel the review? The curators will no longer see the upload in their queue.")) return;
    const res = await api(`/api/requests/${encodeURIComponent(id)}/actions/cancel`, { method: "POST", json: {} });
    if (!res.ok) return say(problem(res), true);
    showReview(null, "", "The review was cancelled. Submit the upload again, to this or another community, or publish it yourself.");
    say("The review was cancelled.");
    $("submit-review").focus();
  }

  async function deleteDraft() {
    if (!state.id || !window.confirm("Delete this draft and its files?")) return;
    const res = await api(draftApi("/draft"), { method: "DELETE" });
    if (!res.ok && res.status !== 204) return say(problem(res), true);
    location.assign("/me/uploads");
  }

  // ---- wiring ---------------------------------------------------------------------------------

  // The metadata's rows and look-ups, filled from the draft (deposit-metadata.js wires their buttons).
  window.cairnDeposit.fillMetadata(state.draft, data);
  const { showEntry, showImport } = window.cairnDeposit.uploader({ state, save, say, draftApi, clearErrors });
  for (const entry of Object.values((state.draft && state.draft.files && state.draft.files.entries) || {})) {
    state.entries.set(entry.key, entry);
    showEntry(entry);
  }
  showImport();
  if (state.draft && state.draft.errors) showErrors(state.draft.errors, "Before publishing, fix:");

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    save();
  });
  $("publish").addEventListener("click", askPublish);
  $("publish-confirm").addEventListener("click", publish);
  $("publish-cancel").addEventListener("click", () => {
    $("publish-dialog").close();
    $("publish").focus();
  });
  if ($("cancel-review")) $("cancel-review").addEventListener("click", cancelReview);
  $("delete-draft").addEventListener("click", deleteDraft);
  $("reserve-doi").addEventListener("click", reserveDoi);
  if ($("submit-review")) $("submit-review").addEventListener("click", submitReview);
})();
