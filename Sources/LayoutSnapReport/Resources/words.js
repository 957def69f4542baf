// Numbers in words, for both pages: the JavaScript twin of LayoutSnapCore's `Plural` and
// LayoutSnapDiff's `LayoutSnapshot.signed`, so a page words a count and a sign as the terminal does.
//   Words.count(1, 'frame') "1 frame", Words.count(1200, 'frame') "1,200 frames",
//   Words.count(2, 'match', 'matches'); Words.word(n, 'differs', 'differ') the word alone;
//   Words.signed(-0.39) "-0.39" (an ASCII hyphen-minus, docs/decisions.md "Minus sign").
const Words = (() => {
  const nf = new Intl.NumberFormat('en-US');
  const word = (n, singular, plural) => (n === 1 ? singular : plural || singular + 's');
  const count = (n, singular, plural) => nf.format(n) + ' ' + word(n, singular, plural);
  const signed = (x) => { x = Number(x) || 0; return (x < 0 ? '-' : '+') + Math.abs(x).toFixed(2); };
  return { word, count, signed };
})();
