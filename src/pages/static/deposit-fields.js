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

  /**
   * Suggestions under `input` from `url()?suggest=…`; a pick calls `pick(hit)`. The first one is
   * highlighted, the arrow keys move the highlight and Enter takes it; Enter on typed text with no
   * suggestion does nothing. `extra(typed)` may add a last choice ({ text, pick }), such as a
   * custom licence: typed text is only ever kept by choosing it.
   */
  function suggest(input, url, render, pick, extra) {
    const box = h("ul", { class: "plain suggestions", hidden: true, "aria-label": `Suggestions for ${input.id}` });
    input.after(box);
    input.setAttribute("autocomplete", "off");
    let timer = 0;
    let seq = 0;
    let choices = [];
    let active = -1;
    const close = () => {
      box.hidden = true;
      box.replaceChildren();
      choices = [];
      active = -1;
    };
    const highlight = (i) => {
      active = i;
      [...box.children].forEach((li, j) => {
        const button = li.firstChild;
        button.classList.toggle("active", j === i);
        if (j === i) button.setAttribute("aria-current", "true");
        else button.removeAttribute("aria-current");
      });
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
        choices = hits.map((hit) => ({ text: render(hit), pick: () => pick(hit) }));
        const more = extra ? extra(typed) : null;
        if (more) choices.push(more);
        box.replaceChildren(
          ...choices.map((choice) =>
            h(
              "li",
              {},
              h(
                "button",
                {
                  type: "button",
                  class: "link",
                  tabindex: -1,
                  onclick: () => {
                    close();
                    choice.pick();
                  },
                },
                choice.text,
              ),
            ),
          ),
        );
        box.hidden = choices.length === 0;
        highlight(hits.length ? 0 : -1);
      }, 200);
    });
    input.addEventListener("keydown", (e) => {
      if (e.key === "Escape") close();
      else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && choices.length) {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        highlight((active + step + choices.length) % choices.length);
      } else if (e.key === "Enter") {
        // Enter never submits the form from a look-up; it takes the highlighted choice, if any.
        e.preventDefault();
        const choice = choices[active];
        close();
        if (choice) choice.pick();
      }
    });
  }

  /**
   * A list of chosen items ({id?, text, raw?}) with a look-up input. `custom` (a noun such as
   * "licence") adds the explicit last choice "Add a custom …: typed"; `raw` keeps an item's JSON as
   * it came so an unchanged item saves unchanged.
   */
  function chips(holder, label, url, render, itemOf, custom) {
    const id = nextId("chips");
    const list = h("ul", { class: "plain chip-list", "aria-label": `${label}s` });
    const input = h("input", { id, type: "text", placeholder: "Type to search" });
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
      if (item.text && !items.some((x) => (x.id && x.id === item.id) || (!x.id && !item.id && x.text === item.text))) items.push(item);
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
      custom
        ? (typed) => ({
            text: `Add a custom ${custom}: “${typed}”`,
            pick: () => {
              add({ text: typed });
              input.value = "";
            },
          })
        : null,
    );
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

  /**
   * Rows get their position: legends, remove labels and the dotted paths errors name. Each list
   * of rows says its path and noun (`data-base`, `data-noun` on the `ol.rows`).
   */
  function renumber() {
    for (const list of document.querySelectorAll("ol.rows[data-base]")) {
      const { base, noun } = list.dataset;
      [...list.children].forEach((row, i) => {
        row.dataset.field = `${base}.${i}`;
        row._legend.textContent = `${noun} ${i + 1}`;
        row._remove.setAttribute("aria-label", `Remove ${noun.toLowerCase()} ${i + 1}`);
        for (const el of row.querySelectorAll("[data-sub]")) el.dataset.field = el.dataset.sub ? `${base}.${i}${el.dataset.sub}` : "";
      });
    }
  }

  window.cairnDeposit = { h, api, problem, title, nextId, suggest, field, chips, creatorRow, fundingRow, renumber };
})();
