// The Vocabularies screen's upload: sends the chosen dump as the request's body (the server streams
// it to the data directory), with a progress bar, then opens the screen where the import job shows.
(function () {
  "use strict";
  const form = document.getElementById("vocabulary-upload");
  if (!form) return;
  const bar = document.getElementById("upload-progress");
  const status = document.getElementById("upload-status");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const file = form.elements.file.files[0];
    if (!file) return;
    const query = new URLSearchParams({ type: form.elements.type.value, name: file.name });
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${form.dataset.upload}?${query}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("X-CSRF-Token", form.elements.csrf.value);
    bar.hidden = false;
    status.textContent = `Uploading ${file.name}…`;
    form.querySelector("button[type=submit]").disabled = true;
    xhr.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) bar.value = Math.floor((100 * e.loaded) / e.total);
    });
    xhr.addEventListener("load", () => {
      let answer = {};
      try {
        answer = JSON.parse(xhr.responseText);
      } catch {
        answer = { message: `The server answered ${xhr.status}.` };
      }
      if (xhr.status === 201 && answer.location) {
        bar.value = 100;
        location.assign(answer.location);
        return;
      }
      status.textContent = answer.message || `The upload failed (${xhr.status}).`;
      form.querySelector("button[type=submit]").disabled = false;
    });
    xhr.addEventListener("error", () => {
      status.textContent = "The upload was cut off: check the connection and try again.";
      form.querySelector("button[type=submit]").disabled = false;
    });
    xhr.send(file);
  });
})();
