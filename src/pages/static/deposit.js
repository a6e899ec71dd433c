// The deposit form, a client of the REST API as InvenioRDM's is: it builds the draft's JSON from
// the form, saves it (POST /api/records, then PUT .../draft) showing the lenient save's `errors`
// beside their fields, and reserves a DOI, submits for review, publishes and deletes. Rows and
// look-ups come from deposit-fields.js, the uploads from deposit-files.js.
(function () {
  "use strict";
  const form = document.getElementById("deposit");
  if (!form) return;
  const { h, api, problem, title, chips, creatorRow, fundingRow, renumber } = window.cairnDeposit;
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
    const metadata = Object.assign({}, base.metadata || {});
    const put = (key, value) => {
      if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0)) delete metadata[key];
      else metadata[key] = value;
    };
    put("resource_type", text("resource-type") ? { id: text("resource-type") } : null);
    put("title", text("title"));
    put("publication_date", text("publication-date"));
    put(
      "creators",
      [...$("creator-list").children].map((row) => row._collect()),
    );
    put("description", text("description"));
    put(
      "rights",
      licences.get().map((l) => (l.id ? { id: l.id } : { title: { en: l.text } })),
    );
    const previous = base.metadata && base.metadata.subjects ? base.metadata.subjects : [];
    const words = text("keywords")
      .split(",")
      .map((w) => w.trim())
      .filter(Boolean);
    put(
      "subjects",
      words.map((w) => {
        const known = previous.find((s) => s.id && s.subject === w);
        return known ? { id: known.id } : { subject: w };
      }),
    );
    put("publisher", text("publisher"));
    put("funding", [...$("funding-list").children].map((row) => row._collect()).filter(Boolean));
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
      custom_fields: base.custom_fields || {},
      pids: base.pids || {},
    };
  }

  /** Each error beside the field it names (the longest path that contains it), and all of them in the summary. */
  function showErrors(errors, heading) {
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
      const inside = wrappers.filter((w) => error.field === w.dataset.field || error.field.startsWith(`${w.dataset.field}.`));
      const wrapper = inside.sort((a, b) => b.dataset.field.length - a.dataset.field.length)[0];
      if (!wrapper) return h("li", {}, `${error.field || "Draft"}: ${message}`);
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
      const name = label ? label.textContent : error.field;
      return h("li", {}, control && control.id ? h("a", { href: `#${control.id}` }, name) : name, `: ${message}`);
    });
    box.append(h("p", {}, heading || "Please fix:"), items.length ? h("ul", {}, items) : "");
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

  async function publish() {
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
    $("review-status").replaceChildren(`Review: ${res.json.status}. `, h("a", { href: `/me/requests/${res.json.id}` }, "Open the review request"));
    say("Submitted for review: the community's curators decide about publishing it.");
  }

  async function deleteDraft() {
    if (!state.id || !window.confirm("Delete this draft and its files?")) return;
    const res = await api(draftApi("/draft"), { method: "DELETE" });
    if (!res.ok && res.status !== 204) return say(problem(res), true);
    location.assign("/me/uploads");
  }

  // ---- wiring ---------------------------------------------------------------------------------

  const licences = chips(
    $("licences"),
    "Licence",
    "/api/vocabularies/licenses",
    (hit) => `${title(hit.title)} (${hit.id})`,
    (hit) => ({ id: hit.id, text: title(hit.title) }),
    true,
  );
  const metadata = (state.draft && state.draft.metadata) || {};
  licences.set((metadata.rights || []).map((r) => ({ id: r.id, text: title(r.title) || r.id })));
  // A new upload starts with its depositor as the first creator (their profile's name, ORCID iD and affiliation).
  const creators = metadata.creators && metadata.creators.length ? metadata.creators : [data.firstCreator || { person_or_org: { type: "personal" } }];
  for (const c of creators) $("creator-list").append(creatorRow(c));
  for (const f of metadata.funding || []) $("funding-list").append(fundingRow(f));
  renumber();
  const { showEntry, showImport } = window.cairnDeposit.uploader({ state, save, say, draftApi });
  for (const entry of Object.values((state.draft && state.draft.files && state.draft.files.entries) || {})) {
    state.entries.set(entry.key, entry);
    showEntry(entry);
  }
  showImport();
  if (state.draft && state.draft.errors) showErrors(state.draft.errors, "Before publishing, fix:");

  $("add-creator").addEventListener("click", () => {
    $("creator-list").append(creatorRow({ person_or_org: { type: "personal" } }));
    renumber();
  });
  $("add-funding").addEventListener("click", () => {
    $("funding-list").append(fundingRow({}));
    renumber();
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    save();
  });
  $("publish").addEventListener("click", publish);
  $("delete-draft").addEventListener("click", deleteDraft);
  $("reserve-doi").addEventListener("click", reserveDoi);
  if ($("submit-review")) $("submit-review").addEventListener("click", submitReview);
})();
