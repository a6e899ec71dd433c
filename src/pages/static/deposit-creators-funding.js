// The deposit form's rows of creators and contributors (with a name look-up and affiliation chips)
// and of funding (funder and award look-ups), built from deposit-fields.js's blocks and added to
// `window.cairnDeposit` for deposit-metadata.js. Each row is an `li` with a numbered legend
// (renumber) and `_collect()` giving its JSON.
(function () {
  "use strict";
  const D = window.cairnDeposit;
  const { h, title, nextId, suggest, field, chips, renumber } = D;

  // ---- creators -------------------------------------------------------------------------------

  /** A creator or (`kind.noun` "Contributor") a contributor; `kind.roles` are the role vocabulary's entries. */
  function creatorRow(creator, kind) {
    const { roles = [], roleRequired = false } = kind || {};
    const p = creator.person_or_org || { type: "personal" };
    const n = nextId("creator");
    const role = h(
      "select",
      { id: `${n}-role` },
      h("option", { value: "" }, roleRequired ? "Choose a role" : "No role"),
      roles.map((r) => h("option", { value: r.id }, r.title)),
    );
    role.value = (creator.role && creator.role.id) || "";
    const input = (suffix, value) => h("input", { id: `${n}-${suffix}`, type: "text", value: value || "" });
    const type = h("select", { id: `${n}-type` }, h("option", { value: "personal" }, "Person"), h("option", { value: "organizational" }, "Organisation"));
    type.value = p.type === "organizational" ? "organizational" : "personal";
    const ids = p.identifiers || [];
    const known = ids.find((i) => i.scheme === "orcid" || i.scheme === "ror");
    const lookup = input("lookup");
    const given = input("given", p.given_name);
    const family = input("family", p.family_name);
    const orgName = input("name", type.value === "organizational" ? p.name : "");
    const ident = input("identifier", known && known.identifier);
    const affHolder = h("div", { class: "chips-field" });
    const remove = h("button", { type: "button", class: "link" }, "Remove");
    const legend = h("legend", {}, "Creator");
    const row = h(
      "li",
      { class: "row" },
      h(
        "fieldset",
        {},
        legend,
        field(".person_or_org.type", `${n}-type`, "Type", type),
        field("", `${n}-lookup`, "Look up a name", lookup, "lookup"),
        field(".person_or_org.given_name", `${n}-given`, "Given name", given, "person-only"),
        field(".person_or_org.family_name", `${n}-family`, "Family name", family, "person-only"),
        field(".person_or_org.name", `${n}-name`, "Organisation name", orgName, "org-only"),
        field(".person_or_org.identifiers", `${n}-identifier`, "ORCID (a person) or ROR id (an organisation)", ident),
        field(".role", `${n}-role`, roleRequired ? "Role (required)" : "Role", role),
        h("div", { class: "field", "data-sub": ".affiliations" }, affHolder, h("p", { class: "field-error", id: `${n}-aff-error`, hidden: true })),
        remove,
      ),
    );
    const affs = chips(
      affHolder,
      "Affiliation",
      "/api/affiliations",
      (hit) => hit.name,
      (hit) => ({ id: hit.id, text: hit.name }),
      "affiliation",
    );
    affs.set((creator.affiliations || []).map((a) => ({ id: a.id, text: a.name || a.id, raw: a.id ? null : a })));
    const showType = () => {
      const person = type.value === "personal";
      for (const el of row.querySelectorAll(".person-only")) el.hidden = !person;
      for (const el of row.querySelectorAll(".org-only")) el.hidden = person;
    };
    type.addEventListener("change", showType);
    showType();
    suggest(
      lookup,
      () => (type.value === "personal" ? "/api/names" : "/api/affiliations"),
      (hit) => [hit.name, ...(hit.affiliations || []).map((a) => a.name)].filter(Boolean).join(" · "),
      (hit) => {
        const scheme = type.value === "personal" ? "orcid" : "ror";
        const found = (hit.identifiers || []).find((i) => i.scheme === scheme);
        if (type.value === "personal") {
          given.value = hit.given_name || "";
          family.value = hit.family_name || hit.name || "";
          affs.set((hit.affiliations || []).map((a) => ({ id: a.id, text: a.name || a.id })));
        } else orgName.value = hit.name || "";
        ident.value = found ? found.identifier : scheme === "ror" ? hit.id : "";
        lookup.value = "";
      },
    );
    remove.addEventListener("click", () => {
      row.remove();
      renumber();
    });
    Object.assign(row, { _base: creator, _legend: legend, _remove: remove, _collect: collect });
    function collect() {
      const person = type.value === "personal";
      const out = { type: type.value };
      if (person) {
        if (given.value.trim()) out.given_name = given.value.trim();
        if (family.value.trim()) out.family_name = family.value.trim();
      } else if (orgName.value.trim()) out.name = orgName.value.trim();
      const others = ids.filter((i) => i.scheme !== "orcid" && i.scheme !== "ror");
      if (ident.value.trim()) others.unshift({ scheme: person ? "orcid" : "ror", identifier: ident.value.trim() });
      const creatorJson = { person_or_org: out };
      if (others.length) out.identifiers = others;
      if (role.value) creatorJson.role = { id: role.value };
      const affiliations = affs.get().map((a) => (a.id ? { id: a.id } : a.raw || { name: a.text }));
      if (affiliations.length) creatorJson.affiliations = affiliations;
      return creatorJson;
    }
    return row;
  }

  // ---- funding --------------------------------------------------------------------------------

  function fundingRow(item) {
    const n = nextId("funding");
    const funder = item.funder || {};
    const award = item.award || {};
    const funderInput = h("input", { id: `${n}-funder`, type: "text", value: funder.name || funder.id || "" });
    const awardTitle = h("input", { id: `${n}-award-title`, type: "text", value: title(award.title) });
    const awardNumber = h("input", { id: `${n}-award-number`, type: "text", value: award.number || "" });
    let funderId = funder.id || null;
    let awardId = award.id || null;
    funderInput.addEventListener("input", () => (funderId = null));
    awardTitle.addEventListener("input", () => (awardId = null));
    awardNumber.addEventListener("input", () => (awardId = null));
    const legend = h("legend", {}, "Funding");
    const remove = h("button", { type: "button", class: "link" }, "Remove");
    const row = h(
      "li",
      { class: "row" },
      h(
        "fieldset",
        {},
        legend,
        field(".funder", `${n}-funder`, "Funder", funderInput),
        h(
          "div",
          { class: "field", "data-sub": ".award" },
          h("label", { for: `${n}-award-title` }, "Award title"),
          awardTitle,
          h("label", { for: `${n}-award-number` }, "Award number"),
          awardNumber,
          h("p", { class: "field-error", id: `${n}-award-error`, hidden: true }),
        ),
        remove,
      ),
    );
    suggest(
      funderInput,
      () => "/api/funders",
      (hit) => [hit.name, hit.country].filter(Boolean).join(" · "),
      (hit) => {
        funderInput.value = hit.name;
        funderId = hit.id;
      },
    );
    suggest(
      awardTitle,
      () => (funderId ? `/api/awards?q=${encodeURIComponent(`funder.id:"${funderId}"`)}` : "/api/awards"),
      (hit) => [hit.number, title(hit.title)].filter(Boolean).join(" · "),
      (hit) => {
        awardTitle.value = title(hit.title);
        awardNumber.value = hit.number || "";
        awardId = hit.id;
        if (!funderId && hit.funder && hit.funder.id) {
          funderId = hit.funder.id;
          funderInput.value = hit.funder.name || hit.funder.id;
        }
      },
    );
    remove.addEventListener("click", () => {
      row.remove();
      renumber();
    });
    Object.assign(row, { _legend: legend, _remove: remove, _collect: collect });
    function collect() {
      const out = {};
      if (funderId) out.funder = { id: funderId };
      else if (funderInput.value.trim()) out.funder = { name: funderInput.value.trim() };
      if (awardId) out.award = { id: awardId };
      else if (awardTitle.value.trim() || awardNumber.value.trim()) {
        out.award = {};
        if (awardNumber.value.trim()) out.award.number = awardNumber.value.trim();
        if (awardTitle.value.trim()) out.award.title = { en: awardTitle.value.trim() };
      }
      return Object.keys(out).length ? out : null;
    }
    return row;
  }

  Object.assign(D, { creatorRow, fundingRow });
})();
