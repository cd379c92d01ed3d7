// Site-wide behaviour that used to be inline handlers (the Content-Security-Policy allows no inline
// scripts): selects marked data-autosubmit submit their form on change; buttons marked
// data-action="print" open the print dialog.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    const target = event.target;
    if (target instanceof HTMLSelectElement && target.hasAttribute("data-autosubmit") && target.form) {
      target.form.submit();
    }
  });
  document.addEventListener("click", function (event) {
    const button = event.target instanceof Element ? event.target.closest("[data-action=print]") : null;
    if (button) window.print();
  });
})();
