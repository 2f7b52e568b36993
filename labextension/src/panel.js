// The course side panel: every lesson with the learner's stars, the puzzle rating and (once the
// course has a review schedule, issue 35) the cards due.  A click opens the notebook; the
// stars come from the server extension's read-only progress endpoint, polled while the panel
// is visible (an ETag makes an unchanged store cost the server two stat calls).
import { Widget } from '@lumino/widgets';

import { ApiError, fetchProgress } from './api';

const POLL_MS = 2000;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'className') {
      node.className = value;
    } else if (key.startsWith('data-') || key.startsWith('aria-') || key === 'title' || key === 'type') {
      node.setAttribute(key, value);
    } else {
      node[key] = value;
    }
  }
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(child); // strings become text nodes: never parsed as HTML
    }
  }
  return node;
}

function starsText(stars, max) {
  return `★ ${stars} / ${max}`;
}

export class CoursePanel extends Widget {
  /**
   * `actions`: `{course(): Promise<course>, open(kind, arg)}` from the plugin; `open` places the
   * course on first use and opens a notebook ('lesson' with a lesson id, or a page name).
   */
  constructor(actions) {
    super();
    this.id = 'canasta-tutor-course';
    this.addClass('ct-ext-panel');
    this.title.caption = 'Canasta Tutor: the course and your stars';
    this._actions = actions;
    this._course = null;
    this._progress = null;
    this._etag = null;
    this._status = ''; // a sentence about the progress (no store yet, damaged store, no server)
    this._timer = null;
    this._polling = false;
    this.node.setAttribute('role', 'region');
    this.node.setAttribute('aria-label', 'Canasta Tutor course');
  }

  get course() {
    return this._course;
  }

  /** The learner's progress as last read (null before it is read, or without a store). */
  get progress() {
    return this._progress;
  }

  async refreshCourse() {
    try {
      this._course = await this._actions.course();
      this._status = this._course.server
        ? this._status
        : 'Your stars show in each lesson once its notebook has run: this Jupyter has no canasta-tutor ' +
          'server extension to read your progress here.';
    } catch (err) {
      this._course = null;
      this._status = `The course cannot be listed: ${err.message}`;
    }
    this.render();
    if (this._course && this._course.server) {
      await this.refreshProgress();
    }
  }

  /** Read the progress again (a 304 costs nothing); redraw if it changed. */
  async refreshProgress() {
    if (!this._course || !this._course.server || this._polling) {
      return;
    }
    this._polling = true;
    try {
      const reply = await fetchProgress(this._etag);
      if (reply.status !== 304) {
        this._progress = reply.data;
        this._etag = reply.etag;
        this._status = '';
        this.render();
      }
    } catch (err) {
      const was = this._status;
      this._progress = null;
      this._etag = null;
      if (err instanceof ApiError && err.code === 'no-store') {
        this._status = err.message;
        this._etag = err.etag;
      } else {
        this._status = `Your stars cannot be shown: ${err.message}`;
      }
      if (this._status !== was) {
        this.render();
      }
    } finally {
      this._polling = false;
    }
  }

  onAfterShow() {
    this._startPolling();
    void this.refreshProgress();
  }

  onAfterAttach() {
    if (this.isVisible) {
      this._startPolling();
    }
  }

  onBeforeHide() {
    this._stopPolling();
  }

  onBeforeDetach() {
    this._stopPolling();
  }

  _startPolling() {
    if (this._timer === null) {
      this._timer = window.setInterval(() => {
        if (document.visibilityState === 'visible') {
          void this.refreshProgress();
        }
      }, POLL_MS);
    }
  }

  _stopPolling() {
    if (this._timer !== null) {
      window.clearInterval(this._timer);
      this._timer = null;
    }
  }

  dispose() {
    this._stopPolling();
    super.dispose();
  }

  _link(label, kind, arg, extra = {}) {
    const button = el('button', { type: 'button', className: 'ct-ext-link', ...extra }, label);
    button.addEventListener('click', () => void this._actions.open(kind, arg));
    return button;
  }

  render() {
    const course = this._course;
    const progress = this._progress;
    const body = el('div', { className: 'ct-ext-panel-body' });
    body.append(el('h2', { className: 'ct-ext-panel-title' }, 'Canasta Tutor'));
    if (course) {
      const pages = course.pages || {};
      const nav = el('div', { className: 'ct-ext-nav' });
      if (pages.start) {
        nav.append(this._link('Start page', 'page', 'start', { 'data-page': 'start' }));
      }
      if (pages.primer) {
        nav.append(this._link('Rules primer', 'page', 'primer', { 'data-page': 'primer' }));
      }
      nav.append(this._link('Rule book', 'rules', null, { 'data-page': 'rules' }));
      body.append(nav);

      const total = progress ? ` ${starsText(progress.stars, progress.max_stars)}` : '';
      body.append(el('h3', { className: 'ct-ext-section' }, 'Lessons', el('span', { className: 'ct-ext-total' }, total)));
      const list = el('ol', { className: 'ct-ext-lessons' });
      for (const lesson of course.lessons || []) {
        const mine = progress && progress.lessons ? progress.lessons[lesson.id] : null;
        const stars = mine ? mine.stars : 0;
        const max = lesson.max_stars || (mine ? mine.max_stars : null);
        const detail = max
          ? el('span', { className: 'ct-ext-stars', 'aria-label': `${stars} stars of ${max}` }, starsText(stars, max))
          : null;
        const solved = mine && lesson.levels
          ? el('span', { className: 'ct-ext-solved' }, `${mine.solved} / ${lesson.levels} levels`)
          : null;
        const row = el('li', { className: 'ct-ext-lesson', 'data-lesson': lesson.id, 'data-stars': String(stars) });
        const open = this._link(`${lesson.order}. ${lesson.title}`, 'lesson', lesson.id, {
          className: 'ct-ext-link ct-ext-lesson-link',
          title: lesson.summary || lesson.title
        });
        row.append(open, el('div', { className: 'ct-ext-meta' }, detail, solved));
        list.append(row);
      }
      body.append(list);

      if (pages.puzzles) {
        body.append(el('h3', { className: 'ct-ext-section' }, 'Puzzles'));
        const puzzles = progress ? progress.puzzles : null;
        if (course.server) {
          const text = puzzles && puzzles.rating !== null && puzzles.tried > 0
            ? `Your puzzle rating: ${puzzles.rating} (deviation ${puzzles.deviation}), ${puzzles.solved} solved of ${puzzles.tried}`
            : 'Your puzzle rating shows after your first puzzle.';
          const rating = puzzles && puzzles.tried ? String(puzzles.rating) : '';
          body.append(el('p', { className: 'ct-ext-rating', 'data-rating': rating }, text));
        }
        body.append(this._link('Puzzles near your rating', 'page', 'puzzles', { 'data-page': 'puzzles' }));
      }
      // the cards due for review (issue 35): shown once the progress report carries them
      if (progress && progress.review && pages.review) {
        body.append(el('h3', { className: 'ct-ext-section' }, 'Review'));
        const due = progress.review.due;
        body.append(this._link(`${due} card${due === 1 ? '' : 's'} due for review`, 'page', 'review',
          { 'data-page': 'review', className: 'ct-ext-link ct-ext-review' }));
      }
    }
    if (this._status) {
      body.append(el('p', { className: 'ct-ext-status', role: 'status' }, this._status));
    }
    this.node.replaceChildren(body);
  }
}
