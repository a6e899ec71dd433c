// Search pages: a ticked facet or a changed sort or page size runs the search at once (without
// this script the "Apply" buttons do it), and focus returns to that control after the reload.
(function () {
  "use strict";
  var FOCUS_KEY = "cairn.search.focus";
  var form = document.getElementById("search-form");
  if (!form) return;
  var buttons = document.querySelectorAll("[data-apply]");
  for (var i = 0; i < buttons.length; i++) buttons[i].hidden = true;
  try {
    var focusId = window.sessionStorage.getItem(FOCUS_KEY);
    window.sessionStorage.removeItem(FOCUS_KEY);
    var target = focusId && document.getElementById(focusId);
    if (target) target.focus();
  } catch (ignored) {
    // Storage may be disabled: focus then starts at the top, as after any page load.
  }
  document.addEventListener("change", function (event) {
    var control = event.target;
    if (!control || !control.hasAttribute || !control.hasAttribute("data-autosubmit")) return;
    try {
      if (control.id) window.sessionStorage.setItem(FOCUS_KEY, control.id);
    } catch (ignored) {
      // As above.
    }
    var owner = control.form || form;
    if (owner.requestSubmit) owner.requestSubmit();
    else owner.submit();
  });
})();
