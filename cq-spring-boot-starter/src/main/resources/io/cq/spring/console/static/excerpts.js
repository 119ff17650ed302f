// The excerpt browser and the dead-letter view: a page of excerpts at a time, read by the application through a
// tailer it opens and closes for the request. Excerpt content is only ever set as text (textContent via h()).
import { h, replace, count } from './views.js';

export class ExcerptBrowser {
  /**
   * @param root        the section holding the controls, the info line and the table
   * @param deadLetters whether this browser shows dead letters
   * @param fetchJson   (url) => Promise of the parsed answer, rejecting with a message
   * @param report      (message or null) => shows an error, or clears it
   */
  constructor(root, deadLetters, fetchJson, report) {
    this.deadLetters = deadLetters;
    this.fetchJson = fetchJson;
    this.report = report;
    this.select = root.querySelector('select');
    this.info = root.querySelector('p');
    this.body = root.querySelector('tbody');
    this.indexInput = root.querySelector('input:not([type])');
    this.timeInput = root.querySelector('input[type=datetime-local]');
    this.follow = root.querySelector('input[type=checkbox]');
    this.page = null;
    for (const button of root.querySelectorAll('button[data-page]')) {
      button.addEventListener('click', () => this.go(button.dataset.page));
    }
    // a queue opens on its newest excerpts, as cq tail -m does
    this.select.addEventListener('change', () => this.load({ from: 'end' }));
    this.root = root;
  }

  /** Offers these queues; keeps the one chosen when it is still there. */
  setQueues(names) {
    const chosen = this.select.value;
    if (Array.from(this.select.options, option => option.value).join('\n') === names.join('\n')) {
      return;
    }
    replace(this.select, names.map(name => h('option', { value: name }, name)));
    if (!names.length) {
      replace(this.info, this.deadLetters ? 'No dead-letter queue in this application: cq.listener.recoverer='
        + 'dead-letter with cq.listener.dead-letter-queue makes one.' : 'The application has no queues.');
    }
    if (names.includes(chosen)) {
      this.select.value = chosen;
    }
  }

  /** Called at every refresh: a browser that follows reloads the end of its queue. */
  refresh() {
    if (this.follow && this.follow.checked && !this.root.hidden) {
      this.load({ from: 'end' });
    }
  }

  go(kind) {
    const excerpts = this.page ? this.page.excerpts.filter(e => e.index >= 0) : [];
    switch (kind) {
      case 'before':
        return excerpts.length ? this.load({ from: 'before', index: excerpts[0].index }) : this.load({ from: 'start' });
      case 'after':
        return excerpts.length ? this.load({ from: 'after', index: excerpts[excerpts.length - 1].index })
          : this.load({ from: 'end' });
      case 'at':
        return this.load({ from: 'at', index: this.indexInput.value.trim() });
      case 'time': {
        const value = this.timeInput.value;
        if (!value) {
          return this.report('Choose a time first.');
        }
        return this.load({ from: 'time', time: new Date(value).toISOString() });
      }
      default:
        return this.load({ from: kind });
    }
  }

  async load(query) {
    const queue = this.select.value;
    if (!queue) {
      return;
    }
    const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));
    try {
      const page = await this.fetchJson('api/queues/' + encodeURIComponent(queue) + '/excerpts?' + params);
      this.page = page;
      this.render(page);
      this.report(null);
    } catch (message) {
      this.report(String(message));
    }
  }

  render(page) {
    const shown = page.excerpts.filter(e => e.index >= 0);
    const range = shown.length ? shown[0].indexHex + ' to ' + shown[shown.length - 1].indexHex : 'nothing';
    const holds = page.firstIndex < 0 ? 'the queue is empty'
      : 'the queue holds 0x' + page.firstIndex.toString(16) + ' to 0x' + page.lastIndex.toString(16);
    replace(this.info, h('span', { dataset: { field: 'range' } }, 'Showing ' + range), '; ' + holds
      + '; read in ' + page.serverMillis.toFixed(1) + ' ms by the application.',
      page.note ? h('span', { class: 'warn', dataset: { field: 'note' } }, ' ' + page.note) : null);
    for (const button of this.root.querySelectorAll('button[data-page=before]')) {
      button.disabled = !page.earlier && shown.length > 0;
    }
    for (const button of this.root.querySelectorAll('button[data-page=after]')) {
      button.disabled = !page.more && shown.length > 0;
    }
    replace(this.body, page.excerpts.length === 0 ? h('tr', null, h('td', { colspan: 5, class: 'muted' },
      'No excerpts here.')) : page.excerpts.map(e => this.deadLetters && e.deadLetter ? this.deadLetterRow(e)
      : this.row(e)));
    // when this page was on screen, from the navigation's start: what ConsolePageCostTest reads
    this.root.dataset.renderedMs = String(Math.round(performance.now()));
  }

  row(e) {
    const row = h('tr', { class: 'excerpt ' + e.kind, dataset: { index: e.indexHex || '', kind: e.kind } },
      h('td', { title: e.index >= 0 ? String(e.index) : '' }, e.indexHex || '?'),
      h('td', null, e.cycle >= 0 ? e.cycle + ' / ' + e.sequence : ''),
      h('td', null, h('span', { class: 'kind' }, e.kind)),
      h('td', { class: 'summary' }, h('code', null, e.summary ?? e.error ?? ''),
        e.traceId ? h('span', { class: 'trace', title: 'trace id' }, ' trace ' + e.traceId) : null));
    return this.expandable(row, e, 4);
  }

  deadLetterRow(e) {
    const d = e.deadLetter;
    const row = h('tr', { class: 'excerpt dead-letter', dataset: { index: e.indexHex || '', kind: e.kind } },
      h('td', { title: String(e.index) }, e.indexHex),
      h('td', null, d.queue + ' ' + (d.indexHex || '')),
      h('td', null, d.listenerId),
      h('td', { class: 'exception' }, h('strong', null, d.exceptionClass), d.exceptionMessage ? ': ' : '',
        d.exceptionMessage),
      h('td', { class: 'summary' }, h('code', null, d.payload.summary ?? d.payload.error ?? '')));
    return this.expandable(row, d.payload, 5, d);
  }

  /** A row that opens, below it, everything about its excerpt. */
  expandable(row, e, columns, deadLetter) {
    let details = null;
    row.addEventListener('click', () => {
      if (details) {
        details.remove();
        details = null;
        return;
      }
      details = h('tr', { class: 'details' }, h('td', { colspan: columns }, describe(e, deadLetter)));
      row.after(details);
    });
    row.tabIndex = 0;
    row.addEventListener('keydown', event => event.key === 'Enter' && row.click());
    return row;
  }
}

function describe(e, deadLetter) {
  const headers = Object.entries(e.headers || {});
  return h('div', { class: 'excerpt-details' },
    h('p', { class: 'muted' }, count(e.length) + ' bytes' + (e.cut ? '; cut for display (cq tail shows it whole)' : '')),
    deadLetter ? h('p', null, 'Failed in listener ', h('strong', null, deadLetter.listenerId), ' on ',
      deadLetter.queue + ' ' + (deadLetter.indexHex || '') + ': ', h('strong', null, deadLetter.exceptionClass),
      deadLetter.exceptionMessage ? ': ' + deadLetter.exceptionMessage : '') : null,
    e.error ? h('p', { class: 'error' }, e.kind === 'damaged' ? 'cq could not read this excerpt: ' : 'Error: ',
      h('code', null, e.error)) : null,
    e.json ? [h('h4', null, 'As cq tail --format json'), h('pre', { class: 'json' }, e.json)] : null,
    e.text !== null && e.text !== undefined ? [h('h4', null, 'Text'), h('pre', { class: 'text' }, e.text)] : null,
    e.hex ? [h('h4', null, 'Bytes (hex)'), h('pre', { class: 'hex' }, e.hex)] : null,
    headers.length ? [h('h4', null, 'Headers'), h('table', { class: 'headers' }, h('tbody', null,
      headers.map(([name, value]) => h('tr', null, h('th', null, name), h('td', null, h('code', null, value))))))]
      : null,
    e.traceId ? h('p', null, 'Trace id ', h('code', { class: 'trace' }, e.traceId)) : null);
}
