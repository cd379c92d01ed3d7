// Polls the import job's JSON every second and updates the progress bar until the job ends.
// Each error's "message" is in the reader's language (the API follows the language cookie); "reason"
// is the English text, kept for API clients. Only textContent is used: error messages quote file contents and must never become markup.
(function () {
  "use strict";
  var root = document.getElementById("import-job");
  if (!root) { return; }
  function field(name) { return root.querySelector('[data-field="' + name + '"]'); }
  function render(job) {
    field("status").textContent = root.dataset[job.status] || job.status;
    field("percent").textContent = job.percent;
    field("processed").textContent = job.processed;
    field("total").textContent = job.total;
    field("created_count").textContent = job.created_count;
    field("updated_count").textContent = job.updated_count;
    field("pictures_count").textContent = job.pictures_count || 0;
    field("bar").setAttribute("aria-valuenow", job.percent);
    field("bar").firstElementChild.style.width = job.percent + "%";
    var body = field("errors");
    if (job.errors && job.errors.length && body.children.length !== job.errors.length) {
      body.textContent = "";
      job.errors.forEach(function (e) {
        var row = document.createElement("tr");
        [e.line === null ? "—" : e.line, e.card || "", e.field || "", e.message || e.reason].forEach(function (v) {
          var cell = document.createElement("td");
          cell.textContent = v;
          row.appendChild(cell);
        });
        body.appendChild(row);
      });
      field("errors-box").hidden = false;
    }
    // A finished job's list holds only warnings (rows skipped while the rest was imported).
    field("errors-title").textContent = job.status === "done" ? root.dataset.warningsTitle : root.dataset.errorsTitle;
    field("done-links").hidden = job.status !== "done";
  }
  function poll() {
    fetch(root.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (job) {
        if (!job) { return; }
        render(job);
        root.dataset.status = job.status;
        if (job.status === "pending" || job.status === "running") { setTimeout(poll, 1000); }
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  if (root.dataset.status === "pending" || root.dataset.status === "running") { poll(); }
})();
