// Talking to the canasta-tutor server extension (canasta_tutor/jupyter_ext/handlers.py), and the
// fallback where it is absent (JupyterLite): the course found through the contents API.
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

const API = 'canasta-tutor/api';
// where the course may sit when no server extension placed it: its own folder, or the root itself
// (a JupyterLite site or `jupyter lab` started on the course's notebooks folder)
const FALLBACK_FOLDERS = ['canasta-tutor', ''];

/** A reply of the server extension that is not a success: its JSON error code and message. */
export class ApiError extends Error {
  constructor(status, code, message, etag = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.etag = etag; // the progress endpoint tags "no store yet" too, so that polling it costs a 304
  }
}

async function request(path, init = {}) {
  const settings = ServerConnection.makeSettings();
  const url = URLExt.join(settings.baseUrl, API, path);
  let response;
  try {
    response = await ServerConnection.makeRequest(url, init, settings);
  } catch (err) {
    throw new ApiError(0, 'network', String(err && err.message ? err.message : err));
  }
  if (response.status === 304) {
    return { status: 304, data: null, etag: response.headers.get('ETag') };
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const code = data && data.error ? data.error : response.status === 404 ? 'absent' : 'http';
    const message = data && data.message ? data.message : `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, code, message, response.headers.get('ETag'));
  }
  return { status: response.status, data, etag: response.headers.get('ETag') };
}

/**
 * The course listing: from the server extension, or (where it is absent) from the files.
 * `{lessons: [{id, title, order, levels, notebook}], pages: {start, puzzles, play, rules, ...},
 *   server: true|false, placed}`
 */
export async function fetchCourse(contents) {
  try {
    const { data } = await request('course');
    return { ...data, server: true };
  } catch (err) {
    // a 404 without our JSON error code: the server extension is not there
    if (err instanceof ApiError && err.status === 404 && err.code === 'absent') {
      return courseFromFiles(contents);
    }
    throw err;
  }
}

/** Place (or bring up to date) the course in the Jupyter root; returns the course listing. */
export async function placeCourse() {
  const { data } = await request('course', { method: 'POST', body: '{}' });
  return { ...data, server: true };
}

/** The learner's progress; `{status: 304}` when unchanged since `etag`. */
export async function fetchProgress(etag) {
  const init = etag ? { headers: { 'If-None-Match': etag } } : {};
  return request('progress', init);
}

/** The rule book's Markdown: from the server extension, else the course's copy (`rules.md`). */
export async function fetchRuleBook(contents, course) {
  try {
    const { data } = await request('rules');
    return data.markdown;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404 && err.code === 'absent')) {
      throw err;
    }
  }
  const path = course && course.pages && course.pages.rules;
  if (!path) {
    throw new ApiError(404, 'no-rule-book', 'The rule book (rules.md) is not in this Jupyter\'s files.');
  }
  const model = await contents.get(path, { content: true, type: 'file', format: 'text' });
  return model.content;
}

function join(folder, name) {
  return folder ? `${folder}/${name}` : name;
}

async function listing(contents, path) {
  try {
    const model = await contents.get(path, { content: true });
    return model.type === 'directory' ? model.content : null;
  } catch (err) {
    return null;
  }
}

// "# Lesson 5: Freezing the pack" -> "Freezing the pack"
function titleOf(notebook, fallback) {
  const cells = (notebook && notebook.cells) || [];
  for (const cell of cells) {
    if (cell.cell_type !== 'markdown') {
      continue;
    }
    const source = Array.isArray(cell.source) ? cell.source.join('') : String(cell.source || '');
    const m = source.match(/^#\s+(?:Lesson\s+\d+:\s*)?(.+)$/m);
    if (m) {
      return m[1].trim();
    }
  }
  return fallback;
}

async function courseFromFiles(contents) {
  for (const folder of FALLBACK_FOLDERS) {
    const top = await listing(contents, folder);
    if (!top || !top.some(f => f.name === 'index.ipynb')) {
      continue;
    }
    const names = new Set(top.map(f => f.name));
    const pages = {};
    for (const [key, name] of [
      ['start', 'index.ipynb'], ['welcome', 'welcome.ipynb'], ['play', 'play.ipynb'],
      ['puzzles', 'puzzles.ipynb'], ['rules', 'rules.md'], ['review', 'review.ipynb']
    ]) {
      if (names.has(name)) {
        pages[key] = join(folder, name);
      }
    }
    const files = (await listing(contents, join(folder, 'lessons'))) || [];
    const lessons = [];
    for (const f of files.filter(f => /^\d+-.+\.ipynb$/.test(f.name)).sort((a, b) => a.name.localeCompare(b.name))) {
      const order = parseInt(f.name, 10);
      if (order === 0) {
        pages.primer = f.path;
        continue;
      }
      let title = f.name.replace(/^\d+-/, '').replace(/\.ipynb$/, '').replace(/-/g, ' ');
      try {
        const nb = await contents.get(f.path, { content: true });
        title = titleOf(nb.content, title);
      } catch (err) {
        // keep the name
      }
      lessons.push({ id: f.name.replace(/\.ipynb$/, ''), title, order, levels: null, notebook: f.path });
    }
    return { server: false, placed: true, folder, start: pages.start, pages, lessons };
  }
  return { server: false, placed: false, folder: null, start: null, pages: {}, lessons: [] };
}
