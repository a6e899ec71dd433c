// The profile page: the affiliation field suggests institutions from the affiliations directory
// (ROR) as the person types, through the browser's own list (a <datalist>: keyboard and screen
// readers work as with any suggestion list). Without scripts the field takes free text.
(function () {
  "use strict";
  var lists = document.querySelectorAll("datalist[data-suggest]");
  for (var i = 0; i < lists.length; i++) {
    (function (list) {
      var input = document.querySelector('input[list="' + list.id + '"]');
      if (!input) return;
      var timer = 0;
      var seq = 0;
      input.addEventListener("input", function () {
        clearTimeout(timer);
        var typed = input.value.trim();
        if (typed.length < 2) return;
        timer = setTimeout(function () {
          var mine = ++seq;
          fetch(list.getAttribute("data-suggest") + "?suggest=" + encodeURIComponent(typed) + "&size=8", { headers: { Accept: "application/json" } })
            .then(function (res) {
              return res.ok ? res.json() : null;
            })
            .then(function (body) {
              // An answer to an older keystroke is dropped: the list follows what is typed now.
              if (!body || mine !== seq) return;
              var options = body.hits.hits.map(function (hit) {
                var option = document.createElement("option");
                option.value = hit.name;
                return option;
              });
              list.replaceChildren.apply(list, options);
            })
            .catch(function () {
              // No suggestions: the field still takes what is typed.
            });
        }, 200);
      });
    })(lists[i]);
  }
})();
