// wide.js: formulas, code and tables wider than their column scroll in their
// block. Such a block gets the cue (a fade at the edge it scrolls towards)
// and can take focus, so the keyboard scrolls it too. In a statement, a
// block in view is measured at once and the others a few at a time while the
// page is idle: measuring one off screen makes the browser lay out what
// content-visibility let it skip (most of a statement: its layout was
// ~120 ms of a reload, style.css), so measuring them all at once would be
// that long task again. A root whose blocks are all measured says so
// (data-measured: the tests wait for it).
const BLOCKS = '.katex-display, pre, .table-wrap';
const whenIdle = globalThis.requestIdleCallback ?? ((fn) => setTimeout(fn, 20));
const cancelIdle = globalThis.cancelIdleCallback ?? clearTimeout;
// At most this long between idle measurements on a busy page.
const IDLE_WAIT_MS = 100;

// label(): the name a wide block is given, in the page's language.
export function wideBlocks(label) {
  const inView = new Set();
  const watched = new Map();   // root -> { blocks, later }
  let queue = [], idle = null;   // [root, block] still to measure, and the callback that will
  const seen = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (e.isIntersecting) inView.add(e.target);
      else inView.delete(e.target);
    }
    mark(entries.filter((e) => e.isIntersecting).map((e) => e.target));
  });

  function mark(blocks) {
    // All widths first, then all changes: one layout, not one per block. A
    // block in a hidden tab has no width: it keeps its marks.
    const widths = blocks.filter((block) => block.offsetParent)
      .map((block) => [block, block.scrollWidth > block.clientWidth + 1]);
    for (const [block, wide] of widths) {
      block.classList.toggle('wide', wide);
      if (!wide || block.onscroll) continue;
      block.tabIndex = 0;
      block.setAttribute('role', 'region');
      if (!block.hasAttribute('aria-label')) block.setAttribute('aria-label', label());
      const edge = () => {
        block.classList.toggle('at-start', block.scrollLeft <= 0);
        block.classList.toggle('at-end', block.scrollLeft + block.clientWidth >= block.scrollWidth - 1);
      };
      block.onscroll = edge;
      requestAnimationFrame(edge);
    }
  }

  // Every block of root measured: now, or (later) those in view now and the
  // rest while idle.
  function measure(root) {
    const { blocks, later } = watched.get(root);
    queue = queue.filter(([r]) => r !== root);
    if (!later) {
      mark(blocks);
      root.dataset.measured = '';
      return;
    }
    delete root.dataset.measured;
    mark(blocks.filter((block) => inView.has(block)));
    queue.push(...blocks.filter((block) => !inView.has(block)).map((block) => [root, block]));
    if (!queue.some(([r]) => r === root)) root.dataset.measured = '';
    else idle ??= whenIdle(next, { timeout: IDLE_WAIT_MS });
  }
  function next(deadline) {
    idle = null;
    while (queue.length) {
      const [root, block] = queue.shift();
      if (!inView.has(block)) mark([block]);
      if (!queue.some(([r]) => r === root)) root.dataset.measured = '';
      if (!(deadline?.timeRemaining?.() > 4)) break;
    }
    if (queue.length) idle = whenIdle(next, { timeout: IDLE_WAIT_MS });
  }

  return {
    // root's content is new: its blocks, measured as measure() says.
    watch(root, { later = false } = {}) {
      for (const block of watched.get(root)?.blocks ?? []) {
        seen.unobserve(block);
        inView.delete(block);
      }
      const blocks = [...root.querySelectorAll(BLOCKS)];
      watched.set(root, { blocks, later });
      for (const block of blocks) seen.observe(block);
      measure(root);
    },
    // A column changed width: every root measured again.
    remeasure() {
      for (const root of watched.keys()) measure(root);
    },
    disconnect() {
      seen.disconnect();
      cancelIdle(idle);
      idle = null;
      queue = [];
    },
  };
}
