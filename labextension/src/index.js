// canasta-tutor in JupyterLab 4 and Notebook 7: the launcher's "Canasta Tutor" cards, the
// command palette's Canasta commands, the Help menu's rule book and the course side panel.
// The server half (canasta_tutor/jupyter_ext) places the course and reads the progress store;
// where it is absent (JupyterLite) the panel lists the course from the files it finds.
import { ILayoutRestorer } from '@jupyterlab/application';
import { ICommandPalette, MainAreaWidget, showErrorMessage } from '@jupyterlab/apputils';
import { ILauncher } from '@jupyterlab/launcher';
import { IMainMenu } from '@jupyterlab/mainmenu';
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';

import { ApiError, fetchCourse, fetchRuleBook, placeCourse } from './api';
import { bookIcon, canastaIcon, cardsIcon, puzzleIcon, reviewIcon } from './icons';
import { watchOutputs } from './linkify';
import { CoursePanel } from './panel';
import { RuleBook, ruleOfHref } from './rulebook';

const CATEGORY = 'Canasta Tutor'; // the launcher's section
const PALETTE = 'Canasta'; // the command palette's category

export const CommandIDs = {
  start: 'canasta-tutor:start',
  lessons: 'canasta-tutor:lessons',
  puzzles: 'canasta-tutor:puzzles',
  play: 'canasta-tutor:play',
  review: 'canasta-tutor:review',
  openLesson: 'canasta-tutor:open-lesson',
  ruleBook: 'canasta-tutor:rule-book',
  showPanel: 'canasta-tutor:show-panel'
};

function activate(app, palette, launcher, mainMenu, rendermime, restorer) {
  const { commands, shell } = app;
  const contents = app.serviceManager.contents;
  const inLab = !!(shell && shell.mode !== undefined); // JupyterLab's shell has a mode; Notebook 7's has none
  let course = null; // the listing, once read
  let placed = null; // the promise of the course placed in the Jupyter root (once per page)
  let book = null; // the rule book's tab

  const loadCourse = async () => {
    course = await fetchCourse(contents);
    return course;
  };
  const courseReady = loadCourse().catch(err => {
    console.warn('canasta-tutor: the course cannot be listed', err);
    return null;
  });

  // On first use in this page, put the course in the Jupyter root (or bring it up to date: the
  // server never overwrites a file the learner changed).
  const ensurePlaced = async () => {
    const known = (await courseReady) || (await loadCourse());
    if (!known.server) {
      return known;
    }
    if (!placed) {
      placed = placeCourse().then(
        result => {
          course = result;
          return result;
        },
        err => {
          placed = null;
          throw err;
        }
      );
    }
    return placed;
  };

  const fail = async (what, err) => {
    const message = err instanceof ApiError ? err.message : String(err);
    void showErrorMessage(`Canasta Tutor: ${what}`, message);
  };

  const openPath = async path => commands.execute('docmanager:open', { path });

  const openPage = async name => {
    try {
      const c = await ensurePlaced();
      const path = c.pages && c.pages[name];
      if (!path) {
        throw new Error(`this course has no ${name} page`);
      }
      return await openPath(path);
    } catch (err) {
      await fail(`cannot open the ${name} page`, err);
    }
  };

  const openLesson = async id => {
    try {
      const c = await ensurePlaced();
      const lesson = (c.lessons || []).find(l => l.id === id || String(l.order) === String(id));
      if (!lesson || !lesson.notebook) {
        throw new Error(`no lesson ${id} in the course`);
      }
      return await openPath(lesson.notebook);
    } catch (err) {
      await fail('cannot open the lesson', err);
    }
  };

  // ------------------------------------------------------------------ the side panel
  const panel = new CoursePanel({
    course: async () => (course && course.lessons && course.lessons.length ? course : (await courseReady) || loadCourse()),
    open: (kind, arg) => {
      if (kind === 'lesson') {
        return openLesson(arg);
      }
      if (kind === 'rules') {
        return commands.execute(CommandIDs.ruleBook, {});
      }
      return openPage(arg);
    }
  });
  panel.title.icon = canastaIcon;
  if (!inLab) {
    panel.title.label = 'Canasta Tutor'; // Notebook 7's View > Left Sidebar menu names the panel by it
  }
  shell.add(panel, 'left', { rank: 650 });
  if (restorer) {
    restorer.add(panel, 'canasta-tutor-course');
  }
  void courseReady.then(() => panel.refreshCourse());

  const showPanel = () => {
    shell.activateById(panel.id);
    return panel;
  };

  // ------------------------------------------------------------------ the rule book
  const openRuleBook = async rule => {
    if (!book || book.isDisposed) {
      const content = new RuleBook(async () => fetchRuleBook(contents, (await courseReady) || {}), rendermime);
      if (inLab) {
        book = new MainAreaWidget({ content });
        book.id = 'canasta-tutor-rule-book-tab';
        book.title.label = content.title.label;
        book.title.caption = content.title.caption;
        book.title.icon = bookIcon;
        book.title.closable = true;
        book.rulebook = content;
        shell.add(book, 'main');
      } else {
        // Notebook 7: the rule book beside the notebook, in the right side panel
        content.title.icon = bookIcon;
        book = content;
        book.rulebook = content;
        shell.add(book, 'right', { rank: 650 });
      }
    }
    shell.activateById(book.id);
    await book.rulebook.show_(rule || null);
    return book.rulebook;
  };

  // Any link to a rule of the book, such as rules.md#R-PACK-4 in a notebook or an output,
  // opens the rule book at that rule.
  document.addEventListener(
    'click',
    event => {
      const a = event.target && event.target.closest ? event.target.closest('a[href*="rules.md#R-"]') : null;
      const rule = a ? ruleOfHref(a.getAttribute('href')) : null;
      if (rule && !(book && book.node.contains(a))) {
        event.preventDefault();
        event.stopPropagation();
        void openRuleBook(rule);
      }
    },
    true
  );

  // ...and every rule number in an output or a rendered Markdown cell is such a link
  let knownRules = null; // the numbers the book has (from the server); null: any R-AREA-N
  void courseReady.then(c => {
    knownRules = c && Array.isArray(c.rules) ? new Set(c.rules) : null;
    watchOutputs(document.body, () => knownRules);
  });

  // ------------------------------------------------------------------ commands
  // the course's pages: [command, page, launcher card's label, palette's label, caption, icon]
  const PAGE_COMMANDS = [
    [CommandIDs.start, 'start', 'Start', 'Open the Canasta start page',
      'The start page: the course, the puzzles and the card table', canastaIcon],
    [CommandIDs.puzzles, 'puzzles', 'Puzzles', "Open today's puzzles (near your rating)",
      'Puzzles near your puzzle rating, by theme, in a streak or against the clock', puzzleIcon],
    [CommandIDs.play, 'play', 'Play a hand', 'Play a hand of Canasta against three bots',
      'The card table: you play South, with hints and a coach', cardsIcon],
    [CommandIDs.review, 'review', 'Review', 'Review what is due',
      'The positions you missed, back when they are due', reviewIcon]
  ];
  for (const [id, page, card, label, caption, icon] of PAGE_COMMANDS) {
    commands.addCommand(id, {
      label: args => (args.launcher ? card : label),
      caption,
      icon,
      // the review page comes with issue 35; the others are always in the course
      isVisible: () => page !== 'review' || !!(course && course.pages && course.pages.review),
      execute: () => openPage(page)
    });
  }
  commands.addCommand(CommandIDs.lessons, {
    label: args => (args.launcher ? 'Lessons' : 'Show the Canasta lessons'),
    caption: 'The course with your stars, and the next lesson to play',
    icon: bookIcon,
    execute: async () => {
      showPanel();
      const c = await ensurePlaced().catch(err => fail('cannot place the course', err));
      const progress = panel.progress;
      const next = ((c && c.lessons) || []).find(l => {
        const mine = progress && progress.lessons ? progress.lessons[l.id] : null;
        return !mine || !l.max_stars || mine.stars < l.max_stars;
      });
      return next ? openLesson(next.id) : undefined;
    }
  });
  commands.addCommand(CommandIDs.openLesson, {
    label: args => (args.title ? `Open lesson ${args.order}: ${args.title}` : 'Open a Canasta lesson'),
    caption: args => args.summary || 'Open a lesson of the course',
    icon: bookIcon,
    execute: args => openLesson(args.id)
  });
  commands.addCommand(CommandIDs.ruleBook, {
    label: args => (args.rule ? `Canasta rule ${args.rule}` : 'Canasta rule book'),
    caption: 'The rules canasta-tutor follows, each anchored by its number (R-PACK-4...)',
    icon: bookIcon,
    execute: args => openRuleBook(args.rule)
  });
  commands.addCommand(CommandIDs.showPanel, {
    label: 'Show the Canasta course panel',
    caption: 'The lessons with your stars and your puzzle rating',
    icon: canastaIcon,
    execute: () => showPanel()
  });

  // ------------------------------------------------------------------ where people look
  if (launcher) {
    const cards = [CommandIDs.start, CommandIDs.lessons, CommandIDs.puzzles, CommandIDs.play];
    cards.forEach((command, rank) => launcher.add({ command, category: CATEGORY, rank, args: { launcher: true } }));
    // the review card comes with the course's review page (issue 35)
    void courseReady.then(c => {
      if (c && c.pages && c.pages.review) {
        launcher.add({ command: CommandIDs.review, category: CATEGORY, rank: cards.length, args: { launcher: true } });
      }
    });
  }
  if (palette) {
    for (const command of [CommandIDs.start, CommandIDs.lessons, CommandIDs.puzzles, CommandIDs.play,
      CommandIDs.ruleBook, CommandIDs.showPanel]) {
      palette.addItem({ command, category: PALETTE });
    }
    void courseReady.then(c => {
      for (const lesson of (c && c.lessons) || []) {
        palette.addItem({
          command: CommandIDs.openLesson,
          category: PALETTE,
          args: { id: lesson.id, title: lesson.title, order: lesson.order, summary: lesson.summary || '' }
        });
      }
      if (c && c.pages && c.pages.review) {
        palette.addItem({ command: CommandIDs.review, category: PALETTE });
      }
    });
  }
  if (mainMenu) {
    mainMenu.helpMenu.addGroup([{ command: CommandIDs.ruleBook }], 30);
  }
  return { panel, openRuleBook, ensurePlaced };
}

const plugin = {
  id: 'canasta-tutor:plugin',
  description: 'The Canasta Tutor course in the launcher, the command palette, the Help menu and a side panel.',
  autoStart: true,
  optional: [ICommandPalette, ILauncher, IMainMenu, IRenderMimeRegistry, ILayoutRestorer],
  activate
};

export default plugin;
