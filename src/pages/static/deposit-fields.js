// The deposit form's building blocks, shared with deposit-files.js and deposit.js through
// `window.cairnDeposit`: elements, REST API calls, look-ups against the vocabularies (names,
// affiliations, licences, funders, awards), and the repeating rows of creators and funding.
(function () {
  "use strict";
  let uid = 0;
  const nextId = (prefix) => `${prefix}-${++uid}`;
  const $ = (id) => document.getElementById(id);

  /** An element with attributes (`on…` are listeners; false/null leave the attribute out) and children. */
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
    return el;
  }

  async function api(path, options) {
    const res = await window.cairn.api(path, options);
    let json = null;
    try {
      json = await res.json();
    } catch {
      json = null;
    }
    return { ok: res.ok, status: res.status, json };
  }
  const problem = (res) => (res.json && res.json.message) || `The server answered ${res.status}.`;
  const title = (v) => (v && typeof v === "object" ? v.en || Object.values(v)[0] || "" : v || "");

  // ---- look-ups against the vocabularies ----------------------------------------------------

  /** Suggestions under `input` from `url()?suggest=…`; a pick calls `pick(hit)`. */
  function suggest(input, url, render, pick) {
    const box = h("ul", { class: "plain suggestions", hidden: true, "aria-label": `Suggestions for ${input.id}` });
    input.after(box);
    input.setAttribute("autocomplete", "off");
    let timer = 0;
    let seq = 0;
    const close = () => {
      box.hidden = true;
      box.replaceChildren();
    };
    input.addEventListener("input", () => {
      clearTimeout(timer);
      const typed = input.value.trim();
      if (typed.length < 2) return close();
      timer = setTimeout(async () => {
        const mine = ++seq;
        const base = url();
        const res = await api(`${base}${base.includes("?") ? "&" : "?"}suggest=${encodeURIComponent(typed)}&size=8`);
        if (mine !== seq || !res.ok) return;
        const hits = res.json.hits.hits;
        const choose = (hit) => () => {
          close();
          pick(hit);
        };
        box.replaceChildren(...hits.map((hit) => h("li", {}, h("button", { type: "button", class: "link", onclick: choose(hit) }, render(hit)))));
        box.hidden = hits.length === 0;
      }, 200);
    });
    input.addEventListener("keydown", (e) => {
      if (e.key === "Escape") close();
    });
  }

  /** A list of chosen items ({id?, text}) with a look-up input; `free` lets Enter add typed text. */
  function chips(holder, label, url, render, itemOf, free) {
    const id = nextId("chips");
    const list = h("ul", { class: "plain chip-list", "aria-label": `${label}s` });
    const input = h("input", { id, type: "text", placeholder: free ? "Type to search, Enter to add" : "Type to search" });
    let items = [];
    const draw = () =>
      list.replaceChildren(
        ...items.map((item, i) =>
          h(
            "li",
            { class: "chip" },
            item.text,
            " ",
            h(
              "button",
              {
                type: "button",
                class: "link",
                "aria-label": `Remove ${item.text}`,
                onclick: () => {
                  items.splice(i, 1);
                  draw();
                },
              },
              "×",
            ),
          ),
        ),
      );
    const add = (item) => {
      if (item.text && !items.some((x) => (x.id && x.id === item.id) || x.text === item.text)) items.push(item);
      draw();
    };
    holder.append(h("label", { for: id }, label), list, input);
    suggest(
      input,
      () => url,
      render,
      (hit) => {
        add(itemOf(hit));
        input.value = "";
      },
    );
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      if (free && input.value.trim()) add({ text: input.value.trim() });
      input.value = "";
    });
    return {
      get: () => items,
      set: (next) => {
        items = next.slice();
        draw();
      },
    };
  }

  /** A field wrapper as the server renders them: the dotted path relative to its row, and an error slot. */
  function field(sub, id, label, control, extraClass) {
    return h(
      "div",
      { class: `field ${extraClass || ""}`, "data-sub": sub },
      h("label", { for: id }, label),
      control,
      h("p", { class: "field-error", id: `${id}-error`, hidden: true }),
    );
  }

  // ---- creators -------------------------------------------------------------------------------

  function creatorRow(creator) {
    const p = creator.person_or_org || { type: "personal" };
    const n = nextId("creator");
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
      true,
    );
    affs.set((creator.affiliations || []).map((a) => ({ id: a.id, text: a.name || a.id })));
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
      if (creator.role && creator.role.id) creatorJson.role = { id: creator.role.id };
      const affiliations = affs.get().map((a) => (a.id ? { id: a.id } : { name: a.text }));
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

  /** Rows get their position: legends, remove labels and the dotted paths errors name. */
  function renumber() {
    for (const [listId, base, noun] of [
      ["creator-list", "metadata.creators", "Creator"],
      ["funding-list", "metadata.funding", "Funding"],
    ]) {
      [...$(listId).children].forEach((row, i) => {
        row.dataset.field = `${base}.${i}`;
        row._legend.textContent = `${noun} ${i + 1}`;
        row._remove.setAttribute("aria-label", `Remove ${noun.toLowerCase()} ${i + 1}`);
        for (const el of row.querySelectorAll("[data-sub]")) el.dataset.field = el.dataset.sub ? `${base}.${i}${el.dataset.sub}` : "";
      });
    }
  }

  window.cairnDeposit = { h, api, problem, title, chips, creatorRow, fundingRow, renumber };
})();
