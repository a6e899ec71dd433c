// Progressive enhancement shared by every page: buttons that confirm, and the session's CSRF
// token for scripts that call the REST API (read from the page's meta tag).
(function () {
  "use strict";
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
})();
