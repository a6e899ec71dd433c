// The deposit form's building blocks, shared with the other deposit scripts through
// `window.cairnDeposit`: elements, REST API calls, look-ups against the vocabularies (names,
// affiliations, licences, funders, awards) with their chips, field wrappers and the rows'
// numbering. The rows of creators and funding are deposit-creators-funding.js's.
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

  window.cairnDeposit = { h, api, problem, title, nextId, suggest, field, chips, renumber };
})();
