// The landing page's enhancement: choosing a citation style fetches the citation from the record
// API (text/x-bibliography) instead of reloading the page, the URL keeping the style for bookmarks;
// opening a text file's preview loads its first bytes from the preview route into the page, and a
// table file's its first rows from its table page; the DOI badge's snippets copy to the clipboard.
(function () {
  "use strict";

  function loadText(holder) {
    var src = holder.getAttribute("data-src");
    var bytes = Number(holder.getAttribute("data-bytes")) || 65536;
    holder.removeAttribute("data-src");
    fetch(src, { headers: { Range: "bytes=0-" + (bytes - 1) }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        var range = /\/(\d+)$/.exec(response.headers.get("Content-Range") || "");
        return response.text().then(function (text) {
          return { text: text, truncated: range !== null && Number(range[1]) > bytes };
        });
      })
      .then(function (result) {
        var pre = document.createElement("pre");
        pre.tabIndex = 0; // a long preview scrolls: keyboards must reach it
        pre.textContent = result.text;
        var link = holder.querySelector("a");
        holder.replaceChildren(pre);
        if (result.truncated && link) {
          var note = document.createElement("p");
          note.className = "muted";
          note.append("The first " + bytes / 1024 + " KB are shown: ", link, " or download it.");
          link.textContent = "open the whole file";
          holder.append(note);
        }
      })
      .catch(function () {
        // The link to the file stays.
      });
  }

  document.querySelectorAll("details.preview").forEach(function (details) {
    var holder = details.querySelector(".text-preview[data-src]");
    if (!holder) return;
    if (details.open) loadText(holder);
    else
      details.addEventListener("toggle", function once() {
        if (!details.open) return;
        details.removeEventListener("toggle", once);
        loadText(holder);
      });
  });

  // A table file's preview not read by the page: its table page's table, moved in when opened.
  function loadTable(holder) {
    var src = holder.getAttribute("data-table-src");
    holder.removeAttribute("data-table-src");
    fetch(src, { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        var table = new DOMParser().parseFromString(html, "text/html").querySelector(".csv-preview");
        if (table) holder.replaceChildren(document.importNode(table, true));
      })
      .catch(function () {
        // The link to the table page stays.
      });
  }

  document.querySelectorAll("details.preview").forEach(function (details) {
    var holder = details.querySelector(".table-preview[data-table-src]");
    if (!holder) return;
    if (details.open) loadTable(holder);
    else
      details.addEventListener("toggle", function once() {
        if (!details.open) return;
        details.removeEventListener("toggle", once);
        loadTable(holder);
      });
  });

  // The DOI badge's snippets: Copy puts the text on the clipboard (the buttons are hidden without scripts).
  var copyStatus = document.getElementById("copy-status");
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    button.hidden = false;
    var label = button.textContent;
    button.addEventListener("click", function () {
      var done = function () {
        button.textContent = "Copied";
        if (copyStatus) copyStatus.textContent = label.replace(/^Copy /, "") + " copied to the clipboard.";
        setTimeout(function () {
          button.textContent = label;
        }, 2000);
      };
      field.select();
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(field.value).then(done, function () {});
      else if (document.execCommand("copy")) done();
    });
  });

  var form = document.getElementById("citation-form");
  var box = document.getElementById("citation-text");
  var select = document.getElementById("citation-style");
  if (!form || !box || !select) return;
  var api = form.getAttribute("data-api");
  var pending = 0;

  // The citation comes as HTML inline markup (citeproc's); only its text is shown, as the server does.
  function textOf(html) {
    return new DOMParser().parseFromString(html, "text/html").body.textContent.replace(/\s+/g, " ").trim();
  }

  function show(style) {
    var mine = ++pending;
    var url = api + (api.indexOf("?") < 0 ? "?" : "&") + "style=" + encodeURIComponent(style);
    box.setAttribute("aria-busy", "true");
    fetch(url, { headers: { Accept: "text/x-bibliography" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        if (mine !== pending) return; // a later choice answers instead
        box.textContent = textOf(html);
        var here = new URL(window.location.href);
        here.searchParams.set("style", style);
        window.history.replaceState(null, "", here.pathname + here.search + here.hash);
        document.querySelectorAll("a[data-citation-export]").forEach(function (link) {
          var target = new URL(link.href);
          target.searchParams.set("style", style);
          link.href = target.pathname + target.search;
        });
      })
      .catch(function () {
        // Without an answer the form does what it does without scripts: reload with ?style=.
        if (mine === pending) form.submit();
      })
      .finally(function () {
        if (mine === pending) box.removeAttribute("aria-busy");
      });
  }

  select.addEventListener("change", function () {
    show(select.value);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    show(select.value);
  });
})();
