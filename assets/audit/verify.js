// The audit page's checks, run by the reader's browser with nothing from the network:
// the seed revealed at the end against the commitment posted at the start (SHA-256 of the
// seed's 32 bytes, by WebCrypto), every receipt against its order and the seed (HMAC-SHA-256,
// by WebCrypto), and every roll against the seed's ChaCha20 stream, drawn
// exactly as the bot draws (src/dice.rs): a die with s sides takes 32-bit words of the
// stream and rejects any word w >= floor(2^32 / s) * s; the result is w % s + 1.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("audit-data").textContent);

  function bytesOf(hex) {
    var bytes = new Uint8Array(hex.length / 2);
    for (var i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
    return bytes;
  }

  function hexOf(bytes) {
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  function rotl(v, c) {
    return (v << c) | (v >>> (32 - c));
  }

  function quarter(x, a, b, c, d) {
    x[a] = (x[a] + x[b]) | 0; x[d] = rotl(x[d] ^ x[a], 16);
    x[c] = (x[c] + x[d]) | 0; x[b] = rotl(x[b] ^ x[c], 12);
    x[a] = (x[a] + x[b]) | 0; x[d] = rotl(x[d] ^ x[a], 8);
    x[c] = (x[c] + x[d]) | 0; x[b] = rotl(x[b] ^ x[c], 7);
  }

  // One ChaCha20 block (20 rounds, 64-bit block counter, stream 0), as 16 words.
  function block(key, counter) {
    var s = new Int32Array(16);
    s[0] = 0x61707865; s[1] = 0x3320646e; s[2] = 0x79622d32; s[3] = 0x6b206574;
    for (var i = 0; i < 8; i++) s[4 + i] = key[i];
    s[12] = counter % 4294967296;
    s[13] = Math.floor(counter / 4294967296);
    var x = Int32Array.from(s);
    for (var r = 0; r < 10; r++) {
      quarter(x, 0, 4, 8, 12); quarter(x, 1, 5, 9, 13);
      quarter(x, 2, 6, 10, 14); quarter(x, 3, 7, 11, 15);
      quarter(x, 0, 5, 10, 15); quarter(x, 1, 6, 11, 12);
      quarter(x, 2, 7, 8, 13); quarter(x, 3, 4, 9, 14);
    }
    var out = new Uint32Array(16);
    for (var j = 0; j < 16; j++) out[j] = (x[j] + s[j]) >>> 0;
    return out;
  }

  // The seed's stream of 32-bit words, from its first.
  function stream(seed) {
    var key = new Int32Array(8);
    for (var i = 0; i < 8; i++) {
      key[i] = seed[4 * i] | (seed[4 * i + 1] << 8) | (seed[4 * i + 2] << 16) | (seed[4 * i + 3] << 24);
    }
    var counter = 0, words = null, at = 16;
    return function next() {
      if (at === 16) { words = block(key, counter++); at = 0; }
      return words[at++];
    };
  }

  function roll(next, sides) {
    sides = Math.max(sides, 1);
    var limit = Math.floor(4294967296 / sides) * sides;
    for (;;) {
      var word = next();
      if (word < limit) return (word % sides) + 1;
    }
  }

  // A receipt as the bot computed it: before rules revision 1, the first 4 bytes of the
  // SHA-256 of the message; since, the first 8 bytes of its HMAC-SHA-256 under the SHA-256
  // of "referee receipt key " and the seed's 32 bytes.
  async function receiptOf(seed, message) {
    var text = new TextEncoder().encode(message);
    if (data.revision === 0) {
      return hexOf(new Uint8Array(await window.crypto.subtle.digest("SHA-256", text))).substr(0, 8);
    }
    var prefix = new TextEncoder().encode("referee receipt key ");
    var material = new Uint8Array(prefix.length + seed.length);
    material.set(prefix);
    material.set(seed, prefix.length);
    var key = await window.crypto.subtle.digest("SHA-256", material);
    var hmac = await window.crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    var mac = new Uint8Array(await window.crypto.subtle.sign("HMAC", hmac, text));
    return hexOf(mac).substr(0, 16);
  }

  // Marks one row of a table of checks verified or not; returns whether it is.
  function mark(row, verified, expected) {
    row.dataset.verified = verified ? "yes" : "no";
    row.querySelector(".check").textContent = verified ? "verified" : "NOT verified: the seed gives " + expected;
    return verified;
  }

  async function checkReceipts() {
    var summary = document.getElementById("receipts-check");
    if (!summary) return;
    if (!window.crypto || !window.crypto.subtle) {
      say(summary, "no", "This browser offers no WebCrypto here: open the page as a file or over https to check the receipts.");
      return;
    }
    var seed = bytesOf(data.seed);
    var good = 0;
    for (var i = 0; i < data.receipts.length; i++) {
      var receipt = data.receipts[i];
      var row = document.getElementById("receipt-" + receipt.i);
      if (!row) continue;
      var expected = await receiptOf(seed, data.game + ":" + receipt.round + ":" + receipt.seat + ":" + receipt.order);
      if (mark(row, expected === receipt.receipt, expected)) good++;
    }
    var rows = document.querySelectorAll("tr.receipt").length;
    if (good === rows && good === data.receipts.length) {
      say(summary, "yes", good + " of " + rows + " receipts verified against the orders and the seed.");
    } else {
      say(summary, "no", "NOT verified: " + good + " of " + rows + " receipts verified against the orders and the seed.");
    }
  }

  function say(element, verified, text) {
    element.dataset.verified = verified;
    element.textContent = text;
  }

  async function check() {
    var commitment = document.getElementById("commitment-check");
    var rolls = document.getElementById("rolls-check");
    data.draws.forEach(function (draw) {
      var row = document.getElementById("draw-" + draw.n);
      if (row) row.querySelector(".result").textContent = draw.result;
    });
    if (!data.seed) {
      say(commitment, "pending", "The seed is not revealed yet: checked when the game is over.");
      say(rolls, "pending", data.draws.length + " public rolls so far, checked when the seed is revealed.");
      return;
    }
    if (!window.crypto || !window.crypto.subtle) {
      say(commitment, "no", "This browser offers no WebCrypto here: open the page as a file or over https to check it.");
    } else {
      // A seed the GM chose is committed to with a salt the bot drew: its bytes follow the
      // seed's.
      var hashed = data.salt ? bytesOf(data.seed + data.salt) : bytesOf(data.seed);
      var what = data.salt ? "the seed and its salt" : "the seed";
      var digest = hexOf(new Uint8Array(await window.crypto.subtle.digest("SHA-256", hashed)));
      if (digest === data.commitment) {
        say(commitment, "yes", "Verified: the SHA-256 of " + what + " is the commitment posted at the start.");
      } else {
        say(commitment, "no", "NOT verified: the SHA-256 of " + what + " is " + digest + ", not the commitment.");
      }
    }
    // The stream is followed draw by draw: a draw missing from the data leaves every later
    // one unknowable, and unchecked.
    var next = stream(bytesOf(data.seed));
    var good = 0;
    for (var i = 0; i < data.draws.length; i++) {
      var draw = data.draws[i];
      if (draw.n !== i + 1) break;
      var expected = roll(next, draw.sides);
      var row = document.getElementById("draw-" + draw.n);
      if (!row) continue;
      if (mark(row, expected === draw.result, expected)) good++;
    }
    // Green only when every roll of the log is in the data, on the page and verified: a roll
    // left unchecked is not verified.
    var rows = document.querySelectorAll("tr.roll");
    Array.prototype.forEach.call(rows, function (row) {
      if (row.dataset.verified === "pending") {
        row.dataset.verified = "no";
        row.querySelector(".check").textContent = "NOT verified: missing from the page's data";
      }
    });
    var total = Math.max(data.total, rows.length);
    if (good === total) {
      say(rolls, "yes", good + " of " + total + " rolls verified against the seed.");
    } else {
      say(rolls, "no", "NOT verified: " + good + " of " + total + " rolls verified against the seed; " +
        (total - good) + " wrong or missing from the page's data.");
    }
    await checkReceipts();
  }

  check();
})();
