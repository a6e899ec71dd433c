// The deposit form's files: the REST API's upload sequence (POST files, PUT content, POST commit)
// with a progress bar per file (XMLHttpRequest's upload progress), multipart transfers for large
// files with retries, and resuming after a network drop from the parts the server has
// (`transfer.uploaded_parts`). Drag and drop or the file chooser; deposit.js wires it to the draft.
(function () {
  "use strict";
  const { h, api, problem } = window.cairnDeposit;
  const $ = (id) => document.getElementById(id);
  const MiB = 1024 * 1024;
  /** Files above this go in parts (InvenioRDM's multipart transfer); parts grow so there are at most 1000. */
  const PART_SIZE = 5 * MiB;
  const RETRIES = 5;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  /** `ctx`: the page's `state` ({id, draft, entries, uploading}), `save()`, `say(message, bad)`, `draftApi(suffix)`, `clearErrors(path)`. */
  window.cairnDeposit.uploader = function (ctx) {
    const { state, save, say, draftApi, clearErrors } = ctx;
    const fileUrl = (key) => draftApi(`/draft/files/${key.split("/").map(encodeURIComponent).join("/")}`);
    const sizeText = (n) => (n >= MiB ? `${(n / MiB).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} kB` : `${n} bytes`);

    /** A file name that wraps at the landing page's break points (file-name-parts.js), never mid-word. */
    const wrappingName = (key) => window.cairnFileName.nameParts(key).flatMap((part, i) => (i > 0 ? [h("wbr"), part] : [part]));

    /** The row of a file: name, size, progress bar, state, resume and delete buttons. */
    function fileRow(key, size) {
      const existing = [...$("file-list").children].find((li) => li.dataset.key === key);
      if (existing) return existing._ui;
      const bar = h("progress", { max: "100", value: "0", "aria-label": `Upload of ${key}` });
      const pct = h("span", { class: "pct" }, "0%");
      const note = h("span", { class: "state muted" });
      const resume = h("button", { type: "button", class: "link", hidden: true }, "Resume ", wrappingName(key));
      const remove = h("button", { type: "button", class: "link" }, "Delete ", wrappingName(key));
      const li = h(
        "li",
        { class: "file", "data-key": key },
        h("span", { class: "name" }, wrappingName(key)),
        " ",
        h("span", { class: "muted" }, sizeText(size || 0)),
        " ",
        bar,
        " ",
        pct,
        " ",
        note,
        " ",
        resume,
        " ",
        remove,
      );
      remove.addEventListener("click", async () => {
        if (li.dataset.busy) return;
        const res = await api(fileUrl(key), { method: "DELETE" });
        if (!res.ok && res.status !== 404) return say(problem(res), true);
        state.entries.delete(key);
        li.remove();
        showImport();
      });
      remove.hidden = state.draft && state.draft.status === "published";
      $("file-list").append(li);
      li._ui = {
        progress(fraction) {
          const value = Math.min(100, Math.floor(fraction * 100));
          bar.value = value;
          pct.textContent = `${value}%`;
        },
        note: (message) => (note.textContent = message),
        busy(on) {
          if (on) {
            li.dataset.busy = "1";
            resume.hidden = true;
          } else delete li.dataset.busy;
        },
        done(entry) {
          this.progress(1);
          note.textContent = `Uploaded (${entry.checksum || "complete"})`;
        },
        fail(message, retry) {
          note.textContent = message;
          resume.hidden = !retry;
          resume.onclick = retry || null;
        },
      };
      return li._ui;
    }

    function showEntry(entry) {
      const ui = fileRow(entry.key, entry.size);
      if (entry.status === "completed") ui.done(entry);
      else ui.note("Incomplete: choose the same file again to finish its upload.");
    }

    const retryable = (status) => status === 0 || status === 408 || status === 429 || status >= 500;

    /** PUT of bytes with upload progress (XMLHttpRequest reports it; fetch does not). */
    function putBytes(url, blob, onProgress) {
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open("PUT", url);
        xhr.setRequestHeader("Content-Type", "application/octet-stream");
        if (window.cairn.csrf) xhr.setRequestHeader("X-CSRF-Token", window.cairn.csrf);
        xhr.upload.onprogress = (e) => onProgress(e.loaded);
        const failed = (message) => reject(Object.assign(new Error(message), { retry: retryable(xhr.status) }));
        xhr.onload = () => {
          if (xhr.status >= 200 && xhr.status < 300) return resolve();
          let message = `The server answered ${xhr.status}.`;
          try {
            message = JSON.parse(xhr.responseText).message || message;
          } catch {
            // not JSON: keep the status
          }
          failed(message);
        };
        xhr.onerror = xhr.onabort = xhr.ontimeout = () => failed("The connection was lost.");
        xhr.send(blob);
      });
    }

    /** Sends with retries and growing pauses; a failure after the last try is thrown. */
    async function withRetries(send, ui, what) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await send();
        } catch (error) {
          if (!error.retry || attempt >= RETRIES) throw error;
          ui.note(`${error.message} Retrying ${what}…`);
          await sleep(500 * attempt);
        }
      }
    }

    /** The parts not uploaded yet (the entry's `transfer.uploaded_parts` says which arrived), three at a time. */
    async function sendParts(file, entry, ui) {
      const { parts, part_size: partSize } = entry.transfer;
      const done = new Set(entry.transfer.uploaded_parts || []);
      const inFlight = new Map();
      const sizeOf = (n) => (n < parts ? partSize : file.size - (parts - 1) * partSize);
      const report = () => {
        let bytes = 0;
        for (const n of done) bytes += sizeOf(n);
        for (const b of inFlight.values()) bytes += b;
        ui.progress(file.size ? bytes / file.size : 1);
      };
      const queue = Array.from({ length: parts }, (_, i) => i + 1).filter((n) => !done.has(n));
      let stopped = false;
      report();
      const worker = async () => {
        while (queue.length && !stopped) {
          const n = queue.shift();
          const blob = file.slice((n - 1) * partSize, (n - 1) * partSize + sizeOf(n));
          const send = () =>
            putBytes(`${fileUrl(entry.key)}/content/${n}`, blob, (b) => {
              inFlight.set(n, b);
              report();
            }).finally(() => inFlight.delete(n));
          try {
            await withRetries(send, ui, `part ${n} of ${parts}`);
          } catch (error) {
            stopped = true;
            throw error;
          }
          done.add(n);
          ui.note(`${done.size} of ${parts} parts uploaded`);
          report();
        }
      };
      await Promise.all(Array.from({ length: Math.min(3, queue.length) }, worker));
    }

    /** One file through the upload sequence; a pending multipart entry of the same size is resumed. */
    async function uploadOne(file) {
      const key = file.name.normalize("NFC");
      const known = state.entries.get(key);
      const ui = fileRow(key, file.size);
      ui.busy(true);
      state.uploading++;
      try {
        let entry = null;
        if (known && known.status === "pending" && known.transfer && known.transfer.type === "M" && known.size === file.size) {
          const res = await api(fileUrl(key));
          if (res.ok) entry = res.json;
        } else if (known) {
          if (known.status === "completed" && !window.confirm(`Replace ${key}?`)) return;
          const res = await api(fileUrl(key), { method: "DELETE" });
          if (!res.ok && res.status !== 404) throw new Error(problem(res));
          state.entries.delete(key);
        }
        if (!entry) {
          const partSize = Math.max(PART_SIZE, Math.ceil(file.size / 1000 / MiB) * MiB);
          const init =
            file.size > PART_SIZE ? { key, size: file.size, transfer: { type: "M", parts: Math.ceil(file.size / partSize), part_size: partSize } } : { key, size: file.size };
          const res = await api(draftApi("/draft/files"), { method: "POST", json: [init] });
          if (!res.ok) throw new Error(problem(res));
          entry = res.json.entries[0];
        }
        state.entries.set(key, entry);
        ui.note("Uploading…");
        if (entry.transfer && entry.transfer.type === "M") await sendParts(file, entry, ui);
        else await withRetries(() => putBytes(`${fileUrl(key)}/content`, file, (b) => ui.progress(file.size ? b / file.size : 1)), ui, "the upload");
        const res = await api(`${fileUrl(key)}/commit`, { method: "POST" });
        if (!res.ok) throw new Error(problem(res));
        state.entries.set(key, res.json);
        ui.done(res.json);
      } catch (error) {
        ui.fail(error.message || String(error), error.retry ? () => uploadOne(file) : null);
        if (error.retry) paused.add(file);
      } finally {
        state.uploading--;
        ui.busy(false);
        showImport();
      }
    }

    const paused = new Set();
    window.addEventListener("online", () => {
      const again = [...paused];
      paused.clear();
      again.forEach(uploadOne);
    });

    async function addFiles(files) {
      if (!files.length) return;
      const onlyMetadata = $("metadata-only");
      if (onlyMetadata && onlyMetadata.checked) onlyMetadata.checked = false;
      if (!state.id || (state.draft && state.draft.files && state.draft.files.enabled === false)) {
        if (!(await save())) return;
      }
      const waiting = files.slice();
      const next = async () => {
        while (waiting.length) await uploadOne(waiting.shift());
      };
      await Promise.all([next(), next()]);
      // "Missing uploaded files" (files.enabled) no longer holds once every file has arrived.
      if (!state.uploading && state.entries.size && [...state.entries.values()].every((e) => e.status === "completed")) clearErrors("files.enabled");
      say(`${files.length} file${files.length > 1 ? "s" : ""} processed.`);
    }

    function showImport() {
      const button = $("import-files");
      button.hidden = !(state.draft && state.draft.status === "new_version_draft" && state.entries.size === 0);
    }

    async function importFiles() {
      const res = await api(draftApi("/draft/actions/files-import"), { method: "POST" });
      if (!res.ok) return say(problem(res), true);
      for (const entry of res.json.entries) {
        state.entries.set(entry.key, entry);
        showEntry(entry);
      }
      showImport();
      say("The files of the previous version were imported.");
    }

    const zone = $("dropzone");
    if (zone) {
      const input = $("file-input");
      zone.addEventListener("dragover", (e) => {
        e.preventDefault();
        zone.classList.add("over");
      });
      zone.addEventListener("dragleave", () => zone.classList.remove("over"));
      zone.addEventListener("drop", (e) => {
        e.preventDefault();
        zone.classList.remove("over");
        addFiles([...e.dataTransfer.files]);
      });
      input.addEventListener("change", () => {
        const files = [...input.files];
        input.value = "";
        addFiles(files);
      });
    }
    $("import-files").addEventListener("click", importFiles);
    return { showEntry, showImport };
  };
})();
