/* Searching for an option finds every page that names it.
 *
 * The search (lunr, in Material's worker) reads a leading "-" as "without":
 * "--time-limit" was a query for pages without "time", or no query at all.
 * Here a word that starts with "--" is an option's name: "--time-limit"
 * becomes "+time +limit", both words required, as the index splits the name
 * (mkdocs.yml, search: separator).  Every other query goes as typed.  The
 * page sends its queries to the worker with postMessage; this wraps it. */
(function () {
  "use strict";
  var post = Worker.prototype.postMessage;

  function option(word) {
    var m = /^--+([A-Za-z0-9][\w-]*)$/.exec(word);
    if (!m) return word;
    return m[1].split(/-+/).filter(Boolean).map(function (w) { return "+" + w; }).join(" ");
  }

  Worker.prototype.postMessage = function (message) {
    if (message && typeof message.data === "string" && message.data.indexOf("--") !== -1) {
      var query = message.data.split(/(\s+)/).map(option).join("");
      message = Object.assign({}, message, { data: query });
    }
    return post.apply(this, [message].concat(Array.prototype.slice.call(arguments, 1)));
  };
})();
