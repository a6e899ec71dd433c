// Progressive enhancement shared by every page: buttons that confirm, the session's CSRF token for
// scripts that call the REST API (read from the page's meta tag), disclosures that fold the header's
// menu and the search filters on a phone, and the column headings phone-sized tables show per cell.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });
  var meta = document.querySelector('meta[name="csrf-token"]');
  window.cairn = {
    csrf: meta ? meta.getAttribute("content") : null,
    /** fetch() against the REST API as the signed-in user (the session cookie and its CSRF token). */
    api: function (path, options) {
      options = options || {};
      var headers = new Headers(options.headers || {});
      if (window.cairn.csrf) headers.set("X-CSRF-Token", window.cairn.csrf);
      if (options.json !== undefined) {
        headers.set("Content-Type", "application/json");
        options.body = JSON.stringify(options.json);
      }
      return fetch(path, { method: options.method || "GET", headers: headers, body: options.body, credentials: "same-origin" });
    },
  };

  /*
   * Disclosures (the header's Menu, the search's Filters): the button's aria-expanded says whether
   * its panel is open, and the panel's "open" class lets site.css show it on a phone. A closed
   * panel is display:none there, so the keyboard cannot reach what is folded away.
   */
  function setOpen(button, open) {
    var panel = document.getElementById(button.getAttribute("aria-controls"));
    button.setAttribute("aria-expanded", open ? "true" : "false");
    if (panel) panel.classList.toggle("open", open);
  }
  // The filters stay as the person left them in this tab: ticking one reloads the page, and the
  // search script then puts the focus back on that box, which must be shown to take it.
  var FILTERS_KEY = "cairn.filters-open";
  function remember(value) {
    try {
      if (value) window.sessionStorage.setItem(FILTERS_KEY, "1");
      else window.sessionStorage.removeItem(FILTERS_KEY);
    } catch (e) {
      // Storage refused (private mode): the filters just start folded.
    }
  }
  function remembered() {
    try {
      return window.sessionStorage.getItem(FILTERS_KEY) === "1";
    } catch (e) {
      return false;
    }
  }
  document.querySelectorAll("button.menu-toggle, button.filters-toggle").forEach(function (button) {
    var filters = button.classList.contains("filters-toggle");
    if (filters && remembered()) setOpen(button, true);
    button.addEventListener("click", function () {
      var open = button.getAttribute("aria-expanded") !== "true";
      setOpen(button, open);
      if (filters) remember(open);
    });
  });
  // Escape, with the focus in the header (the menu, or the account beside it), closes the open
  // menu and gives the focus back to its button.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var toggle = document.querySelector("button.menu-toggle[aria-expanded='true']");
    var header = toggle && toggle.closest("header");
    if (header && header.contains(document.activeElement)) {
      setOpen(toggle, false);
      toggle.focus();
    }
  });

  // Each cell of a reflowing table carries its column's heading, shown beside it once rows stack.
  document.querySelectorAll("table.reflow").forEach(function (table) {
    var headings = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    });
    table.querySelectorAll("tbody tr").forEach(function (row) {
      Array.prototype.forEach.call(row.children, function (cell, i) {
        if (headings[i] && !cell.hasAttribute("data-label")) cell.setAttribute("data-label", headings[i]);
      });
    });
  });
})();
