// The Share dialog of a record page: opens the <dialog> (Escape closes it, focus goes back to the
// Share button), sends its forms to the REST API as the signed-in user (window.cairn.api), and
// re-reads its content from /records/{id}/share after each change.
(function () {
  "use strict";
  var opener = null;

  /** Field names of the API's errors as the dialog's labels say them (never a field path). */
  var LABELS = {
    expires_at: "End date",
    permission: "Permission",
    subject: "Person or group",
    id: "Person or group",
    owned_by: "New owner",
    user: "New owner",
    secret_link_expiration: "Days of access",
    accept_conditions_text: "Conditions",
    description: "Note",
  };

  function byId(id) {
    return document.getElementById(id);
  }

  function body() {
    return byId("share-body");
  }

  function recordId() {
    var b = body();
    return b ? b.getAttribute("data-record") : "";
  }

  function show(id, text) {
    var el = byId(id);
    if (!el) return;
    el.textContent = text || "";
    el.hidden = !text;
  }

  function say(text) {
    show("share-error", "");
    show("share-status", text);
    var status = byId("share-status");
    if (status && text) {
      status.setAttribute("tabindex", "-1");
      status.focus();
    }
  }

  function fail(text) {
    show("share-status", "");
    show("share-error", text);
    var error = byId("share-error");
    if (error) {
      error.setAttribute("tabindex", "-1");
      error.focus();
    }
  }

  /** The API's error answer as sentences: its message, then each field's messages under its label. */
  function errorText(response) {
    return response
      .json()
      .catch(function () {
        return {};
      })
      .then(function (json) {
        var parts = [];
        (json.errors || []).forEach(function (e) {
          var names = String(e.field || "").split(".");
          var label = LABELS[names[names.length - 1]] || LABELS[names[names.length - 2]] || "";
          parts.push((label ? label + ": " : "") + (e.messages || []).join(" "));
        });
        if (!parts.length) parts.push(json.message || "That did not work (" + response.status + ").");
        return parts.join(" ");
      });
  }

  /** Replaces the dialog's content with a fresh copy of the share page's. */
  function refresh() {
    return fetch("/records/" + encodeURIComponent(recordId()) + "/share", { credentials: "same-origin" })
      .then(function (response) {
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("share-body");
        var old = body();
        if (fresh && old) old.replaceWith(document.importNode(fresh, true));
      });
  }

  /** Runs one call; on success says `done` and re-reads the dialog, on refusal says why. */
  function call(path, options, done, after) {
    return window.cairn.api(path, options).then(function (response) {
      if (!response.ok) return errorText(response).then(fail);
      return response
        .json()
        .catch(function () {
          return {};
        })
        .then(function (json) {
          return refresh().then(function () {
            if (after) after(json);
            say(done);
          });
        });
    });
  }

  function valueOf(form, name) {
    var field = form.elements.namedItem(name);
    return field ? String(field.value).trim() : "";
  }

  function submitSettings(form) {
    var days = Number(valueOf(form, "secret_link_expiration") || "0");
    return call(
      "/api/records/" + encodeURIComponent(recordId()) + "/access",
      {
        method: "PUT",
        json: {
          allow_user_requests: form.elements.namedItem("allow_user_requests").checked,
          allow_guest_requests: form.elements.namedItem("allow_guest_requests").checked,
          accept_conditions_text: valueOf(form, "accept_conditions_text") || null,
          secret_link_expiration: Number.isInteger(days) ? days : -1,
        },
      },
      "The access request settings are saved.",
    );
  }

  function submitGrant(form) {
    var subject = valueOf(form, "subject");
    if (!subject) return Promise.resolve(fail("Choose who gets access: type a name, press Find, then pick from the list."));
    var grant = { subject: { type: form.getAttribute("data-subject-type"), id: subject }, permission: valueOf(form, "permission") };
    var expires = valueOf(form, "expires_at");
    if (expires) grant.expires_at = expires;
    return call("/api/records/" + encodeURIComponent(recordId()) + "/access/grants", { method: "POST", json: { grants: [grant] } }, "Access given.");
  }

  function submitLink(form) {
    var link = { permission: valueOf(form, "permission") };
    var expires = valueOf(form, "expires_at");
    var description = valueOf(form, "description");
    if (expires) link.expires_at = expires;
    if (description) link.description = description;
    var pageUrl = form.getAttribute("data-page-url");
    return call("/api/records/" + encodeURIComponent(recordId()) + "/access/links", { method: "POST", json: link }, "The secret link is made: copy it below.", function (json) {
      var box = byId("share-new-link");
      var input = byId("share-new-link-url");
      if (box && input && json.token) {
        input.value = pageUrl + (pageUrl.indexOf("?") < 0 ? "?" : "&") + "token=" + encodeURIComponent(json.token);
        box.hidden = false;
      }
    });
  }

  function submitOwner(form) {
    var user = valueOf(form, "subject");
    if (!user) return Promise.resolve(fail("Choose the new owner: type a name, press Find, then pick from the list."));
    return window.cairn.api("/api/records/" + encodeURIComponent(recordId()) + "/access", { method: "PUT", json: { owned_by: { user: user } } }).then(function (response) {
      if (!response.ok) return errorText(response).then(fail);
      // The caller may manage the record no more: the whole page is read again.
      window.location.assign("/records/" + encodeURIComponent(recordId()));
    });
  }

  var SUBMIT = { settings: submitSettings, grant: submitGrant, link: submitLink, owner: submitOwner };

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var kind = form && form.getAttribute && form.getAttribute("data-share");
    if (!kind || !SUBMIT[kind]) return;
    event.preventDefault();
    var question = form.getAttribute("data-share-confirm");
    if (question && !window.confirm(question)) return;
    SUBMIT[kind](form).catch(function () {
      fail("The server could not be reached: nothing was changed. Try again.");
    });
  });

  /** Fills the subject list from the users' or groups' search. */
  function find(input) {
    var kind = input.getAttribute("data-share-find");
    var select = byId(input.getAttribute("data-share-target"));
    var status = byId(input.getAttribute("data-share-target").replace(/-subject$/, "-status"));
    var q = input.value.trim();
    if (!select) return;
    if (!q) {
      if (status) status.textContent = "Type a name first.";
      return;
    }
    window.cairn
      .api("/api/" + kind + "?q=" + encodeURIComponent(q))
      .then(function (response) {
        return response.ok ? response.json() : { hits: { hits: [] } };
      })
      .then(function (json) {
        var hits = (json.hits && json.hits.hits) || [];
        select.textContent = "";
        hits.forEach(function (hit) {
          var option = document.createElement("option");
          option.value = String(hit.id);
          if (kind === "users") {
            var name = (hit.profile && hit.profile.full_name) || "";
            option.textContent = name && hit.username ? name + " (" + hit.username + ")" : name || hit.username || "user " + hit.id;
          } else {
            option.textContent = hit.name || String(hit.id);
          }
          select.appendChild(option);
        });
        if (!hits.length) {
          var none = document.createElement("option");
          none.value = "";
          none.textContent = "Nobody found";
          select.appendChild(none);
        }
        if (status) status.textContent = hits.length ? hits.length + " found: pick from the list." : "Nothing found for “" + q + "”.";
      });
  }

  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key === "Enter" && input && input.getAttribute && input.getAttribute("data-share-find")) {
      event.preventDefault();
      find(input);
    }
  });

  document.addEventListener("click", function (event) {
    var target =
      event.target instanceof Element ? event.target.closest("[data-share-open],[data-share-close],[data-share-action],[data-share-find-button],[data-share-copy]") : null;
    if (!target) return;
    if (target.hasAttribute("data-share-open")) {
      var dialog = byId(target.getAttribute("data-share-open"));
      if (!dialog || typeof dialog.showModal !== "function") return;
      event.preventDefault();
      opener = target;
      dialog.showModal();
    } else if (target.hasAttribute("data-share-close")) {
      target.closest("dialog").close();
    } else if (target.hasAttribute("data-share-find-button")) {
      find(byId(target.getAttribute("data-share-find-button")));
    } else if (target.hasAttribute("data-share-copy")) {
      var field = byId(target.getAttribute("data-share-copy"));
      field.select();
      var copied = navigator.clipboard ? navigator.clipboard.writeText(field.value) : Promise.reject(new Error("no clipboard"));
      copied.then(
        function () {
          say("The link is copied.");
        },
        function () {
          say("Press Ctrl+C (or ⌘+C) to copy the selected link.");
          field.focus();
        },
      );
    } else {
      var question = target.getAttribute("data-share-confirm");
      if (question && !window.confirm(question)) return;
      call(target.getAttribute("data-share-action"), { method: target.getAttribute("data-method") || "POST" }, target.getAttribute("data-share-done") || "Done.").catch(
        function () {
          fail("The server could not be reached: nothing was changed. Try again.");
        },
      );
    }
  });

  var dialog = byId("share-dialog");
  if (dialog) {
    // Escape (the dialog's cancel) and Close both end here: focus goes back to the Share button.
    dialog.addEventListener("close", function () {
      show("share-status", "");
      show("share-error", "");
      if (opener) opener.focus();
    });
    if (window.location.hash === "#share") {
      opener = document.querySelector("[data-share-open]");
      dialog.showModal();
    }
  }
})();
