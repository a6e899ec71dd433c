// The deposit form's metadata in both directions: `fillMetadata(draft, data)` puts a draft's values
// into the form (the rows of deposit-creators-funding.js and deposit-rows.js, the licence, subject and
// language look-ups) and wires the "Add …" buttons; `collectMetadata(draft)` builds its `metadata`
// and `custom_fields` back. An untouched form collects what it was filled with, so saving it
// unchanged changes nothing.
(function () {
  "use strict";
  const D = window.cairnDeposit;
  const { title, chips, creatorRow, fundingRow, renumber } = D;
  const { titleRow, descriptionRow, dateRow, identifierRow, relatedRow, referenceRow, locationRow } = D.rows;
  const $ = (id) => document.getElementById(id);
  const trimmed = (el) => el.value.trim();
  const looks = {};

  // ---- filling and collecting -----------------------------------------------------------------

  const LISTS = {
    "title-list": { key: "additional_titles", make: titleRow, add: "add-title" },
    "description-list": { key: "additional_descriptions", make: descriptionRow, add: "add-description" },
    "creator-list": { key: "creators", make: (c) => creatorRow(c, { roles: D.choices.creatorsroles }), add: "add-creator" },
    "contributor-list": { key: "contributors", make: (c) => creatorRow(c, { roles: D.choices.contributorsroles, roleRequired: true }), add: "add-contributor" },
    "date-list": { key: "dates", make: dateRow, add: "add-date" },
    "funding-list": { key: "funding", make: fundingRow, add: "add-funding" },
    "identifier-list": { key: "identifiers", make: identifierRow, add: "add-identifier" },
    "related-list": { key: "related_identifiers", make: relatedRow, add: "add-related" },
    "reference-list": { key: "references", make: referenceRow, add: "add-reference" },
    "location-list": { key: "locations", make: locationRow, add: "add-location" },
  };
  const EMPTY = { "creator-list": { person_or_org: { type: "personal" } }, "contributor-list": { person_or_org: { type: "personal" } } };

  function fillMetadata(draft, data) {
    D.choices = data.choices || {};
    const metadata = (draft && draft.metadata) || {};
    looks.licences = chips(
      $("licences"),
      "Licence",
      "/api/vocabularies/licenses",
      (hit) => `${title(hit.title)} (${hit.id})`,
      (hit) => ({ id: hit.id, text: title(hit.title) }),
      "licence",
    );
    looks.licences.set((metadata.rights || []).map((r) => (r.id ? { id: r.id, text: title(r.title) || r.id } : { text: title(r.title), raw: r })));
    looks.subjects = chips(
      $("subjects"),
      "Subject",
      "/api/subjects",
      (hit) => `${hit.subject}${hit.scheme ? ` (${hit.scheme})` : ""}`,
      (hit) => ({ id: hit.id, text: hit.subject }),
    );
    looks.subjects.set((metadata.subjects || []).filter((s) => s.id).map((s) => ({ id: s.id, text: s.subject || s.id })));
    looks.languages = chips(
      $("languages"),
      "Language",
      "/api/vocabularies/languages",
      (hit) => `${title(hit.title)} (${hit.id})`,
      (hit) => ({ id: hit.id, text: title(hit.title) }),
    );
    looks.languages.set((metadata.languages || []).map((l) => ({ id: l.id, text: title(l.title) || l.id })));
    for (const [listId, list] of Object.entries(LISTS)) {
      const items = listId === "location-list" ? (metadata.locations && metadata.locations.features) || [] : metadata[list.key] || [];
      // A new upload starts with its depositor as the first creator (their profile's name, ORCID iD and affiliation).
      const start = listId === "creator-list" && !items.length ? [data.firstCreator || EMPTY[listId]] : items;
      for (const item of start) $(listId).append(list.make(item));
      $(list.add).addEventListener("click", () => {
        const made = list.make(EMPTY[listId] || {});
        $(listId).append(made);
        renumber();
        const first = made.querySelector("input, select, textarea");
        if (first) first.focus();
      });
    }
    renumber();
    const embargo = $("embargo-active");
    embargo.addEventListener("change", () => ($("embargo-details").hidden = !embargo.checked));
    // A part folded away opens when a field in it gets an error, so the message is seen.
    new MutationObserver((changes) => {
      for (const change of changes) {
        if (change.target.hidden) continue;
        let part = change.target.closest("details");
        while (part) {
          part.open = true;
          part = part.parentElement && part.parentElement.closest("details");
        }
      }
    }).observe($("deposit"), { subtree: true, attributeFilter: ["hidden"] });
  }

  const rowsOf = (listId) => [...$(listId).children].map((r) => r._collect()).filter(Boolean);
  const linesOf = (id) =>
    $(id)
      .value.split("\n")
      .map((l) => l.trim())
      .filter(Boolean);

  function collectCustomFields() {
    const out = {};
    for (const holder of document.querySelectorAll(".custom-field[data-custom]")) {
      const inputs = [...holder.querySelectorAll("input")];
      const subs = holder.dataset.subfields ? holder.dataset.subfields.split(" ") : null;
      if (!subs) {
        if (trimmed(inputs[0])) out[holder.dataset.custom] = trimmed(inputs[0]);
        continue;
      }
      const value = {};
      subs.forEach((sub, i) => {
        if (trimmed(inputs[i])) value[sub] = trimmed(inputs[i]);
      });
      if (Object.keys(value).length) out[holder.dataset.custom] = value;
    }
    return out;
  }

  /** The draft's `metadata` and `custom_fields` as the form now says. */
  function collectMetadata(draft) {
    const metadata = Object.assign({}, (draft && draft.metadata) || {});
    const put = (key, value) => {
      if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0)) delete metadata[key];
      else metadata[key] = value;
    };
    const text = (id) => trimmed($(id));
    put("resource_type", text("resource-type") ? { id: text("resource-type") } : null);
    put("title", text("title"));
    put("publication_date", text("publication-date"));
    put("description", text("description"));
    put("copyright", text("copyright"));
    put("version", text("version"));
    put("publisher", text("publisher"));
    put("sizes", linesOf("sizes"));
    put("formats", linesOf("formats"));
    for (const [listId, list] of Object.entries(LISTS)) {
      const items = rowsOf(listId);
      if (listId === "location-list") put("locations", items.length ? { features: items } : null);
      else put(list.key, items);
    }
    put(
      "rights",
      looks.licences.get().map((l) => (l.id ? { id: l.id } : l.raw || { title: { en: l.text } })),
    );
    const words = text("keywords")
      .split(",")
      .map((w) => w.trim())
      .filter(Boolean);
    put("subjects", [...looks.subjects.get().map((s) => ({ id: s.id })), ...words.map((w) => ({ subject: w }))]);
    put(
      "languages",
      looks.languages.get().map((l) => ({ id: l.id })),
    );
    return { metadata, custom_fields: collectCustomFields() };
  }

  Object.assign(D, { fillMetadata, collectMetadata });
})();
