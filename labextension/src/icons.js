// The extension's icons (24x24 SVG, coloured by the theme through JupyterLab's jp-icon classes).
import { LabIcon } from '@jupyterlab/ui-components';

const svg = body =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">${body}</svg>`;

// a spade: the course
export const canastaIcon = new LabIcon({
  name: 'canasta-tutor:spade',
  svgstr: svg(
    '<path class="jp-icon3" fill="#616161" d="M12 2C9 6 4 8.6 4 12.6c0 2.5 2 4.3 4.2 4.3 1.2 0 2.3-.5 3-1.2-.2 2-1 ' +
      '3.6-2.4 4.8V22h6.4v-1.5c-1.4-1.2-2.2-2.8-2.4-4.8.7.7 1.8 1.2 3 1.2 2.2 0 4.2-1.8 4.2-4.3C20 8.6 15 6 12 2z"/>'
  )
});

// an open book: the lessons and the rule book
export const bookIcon = new LabIcon({
  name: 'canasta-tutor:book',
  svgstr: svg(
    '<path class="jp-icon3" fill="#616161" d="M3 5.5C5.7 4.4 8.8 4.6 11 6.2v13c-2.2-1.6-5.3-1.8-8-.7zm18 0v13c-2.7-1.1-5.8-.9-8 ' +
      '.7v-13c2.2-1.6 5.3-1.8 8-.7z"/>'
  )
});

// a diamond with a question: the puzzles
export const puzzleIcon = new LabIcon({
  name: 'canasta-tutor:puzzle',
  svgstr: svg(
    '<path class="jp-icon3" fill="#616161" d="M12 2l8 10-8 10-8-10z"/>' +
      '<path class="jp-icon-contrast0" fill="#fff" d="M11 15h2v2h-2zm1-8.2c1.7 0 2.9 1.1 2.9 2.5 0 1.9-2.1 2-2.1 3.7h-1.6c0-2.5 ' +
      '2.1-2.6 2.1-3.7 0-.6-.5-1-1.3-1s-1.3.5-1.4 1.2L9.1 9.3c.2-1.5 1.4-2.5 2.9-2.5z"/>'
  )
});

// two cards fanned: play a hand
export const cardsIcon = new LabIcon({
  name: 'canasta-tutor:cards',
  svgstr: svg(
    '<rect class="jp-icon3" fill="#616161" x="3" y="5" width="11" height="16" rx="1.5" transform="rotate(-12 8.5 13)"/>' +
      '<rect class="jp-icon3" fill="#9e9e9e" x="10" y="3" width="11" height="16" rx="1.5" transform="rotate(10 15.5 11)"/>'
  )
});

// a clock face: review what is due (issue 35)
export const reviewIcon = new LabIcon({
  name: 'canasta-tutor:review',
  svgstr: svg(
    '<path class="jp-icon3" fill="#616161" d="M12 3a9 9 0 110 18 9 9 0 010-18zm0 2a7 7 0 100 14 7 7 0 000-14zm-1 2h2v5l4 2.3-1 ' +
      '1.7-5-2.9z"/>'
  )
});
