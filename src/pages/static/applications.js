// The applications page: a "Copy to clipboard" button for a token just created (the token stays
// selectable in its field without scripts).
(function () {
  "use strict";
  var buttons = document.querySelectorAll("button[data-copy]");
  for (var i = 0; i < buttons.length; i++) {
    (function (button) {
      var field = document.getElementById(button.getAttribute("data-copy"));
      var status = button.parentNode.querySelector("[data-copy-status]");
      if (!field) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        field.select();
        var done = function () {
          if (status) status.textContent = "Copied.";
        };
        var fallback = function () {
          try {
            document.execCommand("copy");
            done();
          } catch (e) {
            if (status) status.textContent = "Select the token and copy it.";
          }
        };
        if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(field.value).then(done, fallback);
        else fallback();
      });
    })(buttons[i]);
  }
})();
