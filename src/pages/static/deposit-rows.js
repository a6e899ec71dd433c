// The deposit form's repeating metadata rows beyond creators and funding (deposit-creators-funding.js):
// additional titles and descriptions, dates, alternate identifiers, related works, references and
// locations. Each row is an `li` with a numbered legend and `_collect()`, which gives its JSON back
// as it came when nothing was changed (a location's shape and identifiers, which have no field,
// are kept). Identifier schemes are detected as typed with the server's own rules
// (identifier-schemes.js, made from src/records/metadata/identifiers.ts). Selects offer the small
// vocabularies the page was given (`cairnDeposit.choices`, set by deposit-metadata.js).
(function () {
  "use strict";
  const D = window.cairnDeposit;
  const { h, title, nextId, suggest, field, renumber } = D;
  const $ = (id) => document.getElementById(id);
  const ids = window.cairnIdentifiers;
  const choicesOf = (type) => (D.choices && D.choices[type]) || [];

  const SCHEME_NAMES = {
    ads: "ADS bibcode",
    ark: "ARK",
    arxiv: "arXiv",
    crossreffunderid: "Crossref Funder ID",
    doi: "DOI",
    ean13: "EAN-13",
    eissn: "eISSN",
    geonames: "GeoNames",
    grid: "GRID",
    handle: "Handle",
    igsn: "IGSN",
    isbn: "ISBN",
    isni: "ISNI",
    issn: "ISSN",
    istc: "ISTC",
    lissn: "Linking ISSN",
    lsid: "LSID",
    other: "Other",
    pmid: "PubMed ID",
    purl: "PURL",
    upc: "UPC",
    url: "URL",
    urn: "URN",
    w3id: "w3id",
    wikidata: "Wikidata",
  };

  const trimmed = (el) => el.value.trim();
  const input = (id, value, extra) => h("input", Object.assign({ id, type: "text", value: value || "" }, extra || {}));

  /** A select of a vocabulary's choices; `placeholder` is the empty first option. */
  function select(id, list, value, placeholder) {
    const el = h(
      "select",
      { id },
      h("option", { value: "" }, placeholder),
      (list || []).map((c) => h("option", { value: c.id }, c.title)),
    );
    el.value = value || "";
    return el;
  }

  /**
   * A scheme select beside an identifier input: while it is left on "Detect…" (or on what was
   * detected), typing sets it to the first allowed scheme the value looks like.
   */
  function schemeSelect(id, identifier, allowed, value) {
    const el = h(
      "select",
      { id },
      h("option", { value: "" }, "Detect from the identifier"),
      allowed.map((s) => h("option", { value: s }, SCHEME_NAMES[s] || s.toUpperCase())),
    );
    const detect = () => ids.detectSchemes(identifier.value.trim()).find((s) => allowed.includes(s)) || "";
    el.value = value || "";
    let auto = !value || detect() === value;
    identifier.addEventListener("input", () => {
      if (auto) el.value = detect();
    });
    el.addEventListener("change", () => {
      auto = el.value === "" || el.value === detect();
    });
    return el;
  }

  /** A field with one entry of a big vocabulary (a language) by look-up: the input shows its title, the pick keeps its id. */
  function vocabPick(sub, id, label, url, current) {
    const el = input(id, current ? title(current.title) || current.id : "");
    const wrapper = field(sub, id, label, el);
    let picked = current && current.id ? current.id : null;
    el.addEventListener("input", () => (picked = null));
    // After the field is built: the suggestions go right after the input.
    suggest(
      el,
      () => url,
      (hit) => `${title(hit.title)} (${hit.id})`,
      (hit) => {
        picked = hit.id;
        el.value = title(hit.title);
      },
    );
    return { el: wrapper, get: () => (picked ? { id: picked } : null) };
  }

  /** A row: a fieldset with its legend (numbered by renumber), the fields, a Remove button and `collect`. */
  function row(fields, collect, extra) {
    const legend = h("legend", {});
    const remove = h("button", { type: "button", class: "link" }, "Remove");
    const li = h("li", { class: "row" }, h("fieldset", {}, legend, fields, extra || null, remove));
    remove.addEventListener("click", () => {
      li.remove();
      renumber();
    });
    return Object.assign(li, { _legend: legend, _remove: remove, _collect: collect });
  }

  // ---- the rows -------------------------------------------------------------------------------

  function titleRow(item) {
    const n = nextId("title");
    const text = input(`${n}-text`, item.title);
    const type = select(`${n}-type`, choicesOf("titletypes"), item.type && item.type.id, "Choose a type");
    const lang = vocabPick(".lang", `${n}-lang`, "Title language", "/api/vocabularies/languages", item.lang);
    const fields = [field(".title", `${n}-text`, "Additional title", text), field(".type", `${n}-type`, "Title type", type), lang.el];
    return row(fields, () => {
      const out = {};
      if (trimmed(text)) out.title = trimmed(text);
      if (type.value) out.type = { id: type.value };
      if (lang.get()) out.lang = lang.get();
      return Object.keys(out).length ? out : null;
    });
  }

  function descriptionRow(item) {
    const n = nextId("description");
    const text = h("textarea", { id: `${n}-text` });
    text.value = item.description || "";
    const type = select(`${n}-type`, choicesOf("descriptiontypes"), item.type && item.type.id, "Choose a type");
    const lang = vocabPick(".lang", `${n}-lang`, "Description language", "/api/vocabularies/languages", item.lang);
    const fields = [field(".description", `${n}-text`, "Additional description", text), field(".type", `${n}-type`, "Description type", type), lang.el];
    return row(fields, () => {
      const out = {};
      if (trimmed(text)) out.description = trimmed(text);
      if (type.value) out.type = { id: type.value };
      if (lang.get()) out.lang = lang.get();
      return Object.keys(out).length ? out : null;
    });
  }

  function dateRow(item) {
    const n = nextId("date");
    const hint = h("p", { class: "hint muted", id: `${n}-value-hint` }, $("publication-date-hint").textContent);
    const value = input(`${n}-value`, item.date, { inputmode: "numeric", "aria-describedby": `${n}-value-hint` });
    const type = select(`${n}-type`, choicesOf("datetypes"), item.type && item.type.id, "Choose a type");
    const about = input(`${n}-about`, item.description);
    const dateField = field(".date", `${n}-value`, "Date", value);
    dateField.insertBefore(hint, dateField.lastChild);
    const fields = [dateField, field(".type", `${n}-type`, "Date type", type), field(".description", `${n}-about`, "What the date is about", about)];
    return row(fields, () => {
      const out = {};
      if (trimmed(value)) out.date = trimmed(value);
      if (type.value) out.type = { id: type.value };
      if (trimmed(about)) out.description = trimmed(about);
      return Object.keys(out).length ? out : null;
    });
  }

  /** Identifier and scheme fields; `get()` is `{identifier, scheme}` with what is filled in. */
  function identifierFields(n, item, allowed, label) {
    const identifier = input(`${n}-identifier`, item.identifier);
    const scheme = schemeSelect(`${n}-scheme`, identifier, allowed, item.scheme);
    const fields = [field(".identifier", `${n}-identifier`, label, identifier), field(".scheme", `${n}-scheme`, "Scheme", scheme)];
    const get = () => {
      const out = {};
      if (trimmed(identifier)) out.identifier = trimmed(identifier);
      if (scheme.value) out.scheme = scheme.value;
      return out;
    };
    return { fields, get };
  }

  function identifierRow(item) {
    const pair = identifierFields(nextId("identifier"), item, ids.RECORD_IDENTIFIER_SCHEMES, "Identifier");
    return row(pair.fields, () => (pair.get().identifier ? pair.get() : null));
  }

  function relatedRow(item) {
    const n = nextId("related");
    const relation = select(`${n}-relation`, choicesOf("relationtypes"), item.relation_type && item.relation_type.id, "Choose a relation");
    const pair = identifierFields(n, item, ids.RECORD_IDENTIFIER_SCHEMES, "Identifier of the related work");
    const type = select(`${n}-type`, choicesOf("resourcetypes"), item.resource_type && item.resource_type.id, "No resource type");
    const fields = [
      field(".relation_type", `${n}-relation`, "Relation (this upload …)", relation),
      ...pair.fields,
      field(".resource_type", `${n}-type`, "Resource type of the related work", type),
    ];
    return row(fields, () => {
      const out = pair.get();
      if (relation.value) out.relation_type = { id: relation.value };
      if (type.value) out.resource_type = { id: type.value };
      return Object.keys(out).length ? out : null;
    });
  }

  function referenceRow(item) {
    const n = nextId("reference");
    const text = input(`${n}-text`, item.reference);
    const pair = identifierFields(n, item, ids.RECORD_IDENTIFIER_SCHEMES, "Identifier of the reference (optional)");
    return row([field(".reference", `${n}-text`, "Reference", text), ...pair.fields], () => {
      const out = pair.get();
      if (trimmed(text)) out.reference = trimmed(text);
      return Object.keys(out).length ? out : null;
    });
  }

  function locationRow(item) {
    const n = nextId("location");
    const geometry = item.geometry || null;
    const point = geometry && geometry.type === "Point" ? geometry.coordinates : null;
    const place = input(`${n}-place`, item.place);
    const about = input(`${n}-about`, item.description);
    const number = (id, value, min, max) => h("input", { id, type: "number", step: "any", min, max, value: value === undefined || value === null ? "" : String(value) });
    const lat = number(`${n}-lat`, point && point[1], -90, 90);
    const lon = number(`${n}-lon`, point && point[0], -180, 180);
    const kept = geometry && !point ? h("p", { class: "muted" }, `Its shape (a ${geometry.type}) is kept as it is; a point entered here replaces it.`) : null;
    const coordinates = h(
      "div",
      { class: "field point", "data-sub": ".geometry" },
      h("label", { for: `${n}-lat` }, "Latitude (optional)"),
      lat,
      h("label", { for: `${n}-lon` }, "Longitude (optional)"),
      lon,
      h("p", { class: "field-error", id: `${n}-point-error`, hidden: true }),
    );
    const fields = [field(".place", `${n}-place`, "Place", place), field(".description", `${n}-about`, "About the place", about), coordinates];
    return row(
      fields,
      () => {
        const out = {};
        if (trimmed(lat) || trimmed(lon)) out.geometry = { type: "Point", coordinates: [Number(trimmed(lon)), Number(trimmed(lat))] };
        else if (geometry && !point) out.geometry = geometry;
        if (trimmed(place)) out.place = trimmed(place);
        if (trimmed(about)) out.description = trimmed(about);
        // Identifiers (GeoNames, Wikidata) have no field here: they are kept as they came.
        if (item.identifiers && item.identifiers.length) out.identifiers = item.identifiers;
        return Object.keys(out).length ? out : null;
      },
      kept,
    );
  }

  D.rows = { titleRow, descriptionRow, dateRow, identifierRow, relatedRow, referenceRow, locationRow };
})();
