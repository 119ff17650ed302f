// The console's views of queues, listeners, adapters and named tailers. Everything that comes from the application
// becomes text nodes (h() below): no value is ever parsed as HTML.
import { sparkline } from './chart.js';

/** An element with attributes and children; strings and numbers become text nodes, null and false are left out. */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (name === 'on') {
      for (const [event, handler] of Object.entries(value)) {
        element.addEventListener(event, handler);
      }
    } else if (name === 'dataset') {
      Object.assign(element.dataset, value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(element, child);
    } else if (child instanceof Node) {
      element.appendChild(child);
    } else {
      element.appendChild(document.createTextNode(String(child)));
    }
  }
}

/** Replaces an element's children. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/**
 * Makes an element's children like those given, changing only what differs: elements that stay keep their identity,
 * so a field being typed in keeps its text and focus, and an open details element stays open, across refreshes.
 */
export function update(element, ...children) {
  const fresh = document.createElement('div');
  append(fresh, children);
  morph(element, fresh);
}

function morph(target, source) {
  const wanted = Array.from(source.childNodes);
  wanted.forEach((node, i) => {
    const present = target.childNodes[i];
    if (!present) {
      target.appendChild(node);
    } else if (!alike(present, node)) {
      target.replaceChild(node, present);
    } else if (node.nodeType !== Node.ELEMENT_NODE) {
      if (present.nodeValue !== node.nodeValue) {
        present.nodeValue = node.nodeValue;
      }
    } else {
      attributes(present, node);
      morph(present, node);
    }
  });
  while (target.childNodes.length > wanted.length) {
    target.lastChild.remove();
  }
}

function alike(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName
    && (a.nodeType !== Node.ELEMENT_NODE || (a.getAttribute('data-key') || '') === (b.getAttribute('data-key') || ''));
}

function attributes(present, wanted) {
  for (const name of present.getAttributeNames()) {
    // what the reader changed (a details element opened) is theirs to keep
    if (!wanted.hasAttribute(name) && !(name === 'open' && present.nodeName === 'DETAILS')) {
      present.removeAttribute(name);
    }
  }
  for (const name of wanted.getAttributeNames()) {
    if (present.getAttribute(name) !== wanted.getAttribute(name)) {
      present.setAttribute(name, wanted.getAttribute(name));
    }
  }
}

export function bytes(n) {
  if (n === null || n === undefined || n < 0) {
    return 'unknown';
  }
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return (unit === 0 ? String(value) : value.toFixed(value < 10 ? 2 : 1)) + ' ' + units[unit];
}

export function count(n) {
  return n === null || n === undefined ? '' : Number(n).toLocaleString('en');
}

function index(value, hex) {
  return value < 0 ? h('span', { class: 'muted' }, 'none') : h('span', { title: String(value) }, hex);
}

function time(iso) {
  return iso ? new Date(iso).toISOString().replace('.000Z', 'Z') : '';
}

function figure(label, value, explanation) {
  return [h('dt', { title: explanation }, label), h('dd', null, value, explanation ? h('small', null, explanation) : null)];
}

/** The queues: roll cycle, codecs, files, indexes, what the disk figures mean, writers, settings. */
export function renderQueues(section, overview) {
  const cards = overview.queues.map(view => {
    const q = view.queue;
    const allocated = q.allocatedBytes < 0 ? h('span', { class: 'warn' }, view.disk.allocatedUnknown)
      : bytes(q.allocatedBytes);
    return h('article', { class: 'card', 'data-key': view.name, dataset: { queue: view.name } },
      h('h2', null, view.name, view.deadLetters ? h('span', { class: 'badge' }, 'dead letters') : null,
        q.readOnly ? h('span', { class: 'badge' }, 'read-only') : null),
      h('p', { class: 'muted path', title: 'Hidden unless management.endpoint.queues.show-values allows it' }, q.path),
      h('dl', null,
        figure('Roll cycle', q.rollCycle),
        figure('Codecs', q.settings.codecs || 'none'),
        figure('Durability', q.durability),
        figure('Cycles on disk', count(q.files), 'current cycle ' + q.currentCycle),
        figure('First index', index(q.firstIndex, q.firstIndexHex),
          view.firstCycle ? 'cycle started ' + time(view.firstCycle) : 'the queue is empty'),
        figure('Last index', index(q.lastIndex, q.lastIndexHex),
          view.lastCycle ? 'cycle started ' + time(view.lastCycle) : ''),
        figure('Written', bytes(q.writtenBytes), 'what the files hold: table store, headers, indexes, excerpts'),
        figure('Allocated', allocated, 'disk blocks the files take, what du counts'),
        figure('Apparent size', bytes(q.apparentBytes), 'the files\' lengths, what ls -l shows: the newest cycle '
          + 'file is mapped ahead of the writer and sparse, so this is not disk used'),
        figure('Free disk', bytes(view.disk.usableBytes), 'of ' + bytes(view.disk.totalBytes) + ' on '
          + view.disk.filesystem + (view.disk.local ? '' : ' (not local)')
          + (view.disk.warningBytes > 0 ? '; health DOWN below ' + bytes(view.disk.warningBytes) : '')),
        figure('Disk health', h('span', { class: view.disk.low ? 'bad' : 'good' }, view.disk.low ? 'LOW' : 'OK'))),
      h('h3', null, 'Writers'),
      q.writers.length === 0 ? h('p', { class: 'muted' }, 'No process has it open for writing.')
        : table(['Slot', 'Pid', 'Host', 'Write lock'], q.writers.map(w =>
          [w.processSlot, w.pid === null ? '******' : w.pid, w.host, w.holdsWriteLock ? 'held' : '']), 'writers'),
      h('details', null, h('summary', null, 'All settings'),
        table(['Setting', 'Value'], Object.entries(q.settings), 'settings')));
  });
  update(section, overview.queues.length === 0 ? h('p', null, 'The application has no queues.') : cards);
}

function table(headings, rows, name) {
  return h('table', { class: name },
    h('thead', null, h('tr', null, headings.map(text => h('th', null, text)))),
    h('tbody', null, rows.map(cells => h('tr', null, cells.map(cell => h('td', null, cell))))));
}

/**
 * Listeners and adapters: state, position, lag and counts, a chart of the last minutes, and the write actions. The
 * buttons say what they do in data attributes; one handler on the section sends them (delegation), so that a
 * refresh that turns Pause into Resume changes no handler.
 */
export function renderListeners(section, overview) {
  const charts = new Map(overview.charts.map(series => [series.kind + ':' + series.id, series]));
  const listeners = overview.queues.flatMap(view => view.queue.listeners);
  const adapters = overview.queues.flatMap(view => view.queue.adapters.map(a => ({ ...a, queue: view.name })));
  const window = overview.chartsUnavailable ? h('p', { class: 'muted' }, overview.chartsUnavailable) : null;
  update(section,
    h('h2', null, 'Listeners'),
    window,
    listeners.length === 0 ? h('p', { class: 'muted' }, 'No @QueueListener in this application.')
      : h('table', { class: 'listeners' },
        h('thead', null, h('tr', null, ['Listener', 'Queue', 'State', 'Next index', 'Lag', 'Processed', 'Failed',
          'Retries', 'Processed / failed per second', 'Lag', overview.writable ? 'Actions' : null]
          .map(text => text && h('th', null, text)))),
        h('tbody', null, listeners.map(l => h('tr', { 'data-key': l.id, dataset: { listener: l.id, queue: l.queue } },
          h('td', null, l.id), h('td', null, l.queue),
          h('td', { class: 'state ' + l.state.toLowerCase(), dataset: { field: 'state' } }, l.state),
          h('td', { dataset: { field: 'next' } }, index(l.nextIndex, l.nextIndexHex)),
          h('td', { class: l.lag > 0 ? 'lagging' : '', dataset: { field: 'lag' } }, count(l.lag)),
          h('td', { dataset: { field: 'processed' } }, count(l.processed)),
          h('td', { dataset: { field: 'failed' } }, count(l.failed)),
          h('td', null, count(l.retries)),
          h('td', null, rates(charts.get('listener:' + l.id))),
          h('td', null, lag(charts.get('listener:' + l.id))),
          overview.writable ? h('td', null, actions(l)) : null)))),
    h('h2', null, 'Spring Integration adapters'),
    adapters.length === 0 ? h('p', { class: 'muted' }, 'No cq adapter in this application.')
      : h('table', { class: 'adapters' },
        h('thead', null, h('tr', null, ['Adapter', 'Kind', 'Queue', 'State', 'Next index', 'Lag', 'Processed',
          'Failed', 'Processed / failed per second', 'Lag'].map(text => h('th', null, text)))),
        h('tbody', null, adapters.map(a => h('tr', { 'data-key': a.id, dataset: { adapter: a.id } },
          h('td', null, a.id), h('td', null, a.kind), h('td', null, a.queue),
          h('td', { class: 'state ' + a.state.toLowerCase() }, a.state),
          h('td', null, index(a.nextIndex, a.nextIndexHex)), h('td', null, count(a.lag)),
          h('td', null, count(a.processed)), h('td', null, count(a.failed)),
          h('td', null, rates(charts.get('adapter:' + a.id))), h('td', null, lag(charts.get('adapter:' + a.id))))))));
}

function rates(series) {
  return series ? sparkline([{ values: series.processedPerSecond, name: 'processed/s', class: 'processed' },
    { values: series.failedPerSecond, name: 'failed/s', class: 'failed' }], series.times) : '';
}

function lag(series) {
  return series ? sparkline([{ values: series.lag, name: 'lag', class: 'lag' }], series.times) : '';
}

function actions(listener) {
  const paused = listener.state === 'PAUSED';
  const button = (label, action, title) => h('button', { type: 'button', title, dataset: { action } }, label);
  return h('div', { class: 'actions' },
    paused ? button('Resume', 'resume', 'Go on reading') : button('Pause', 'pause', 'Stop reading after the excerpt '
      + 'in hand, keeping the position'),
    button('⇤', 'seek-to-start', 'Move before the first excerpt: read the whole queue again'),
    button('⇥', 'seek-to-end', 'Move after the last excerpt: skip what is there'),
    h('input', { size: 14, placeholder: 'index', 'aria-label': 'index to seek to' }),
    button('Seek', 'seek-to-index', 'Move onto this index'));
}

/** Sends the action of a listener's button when one is clicked: {@code act(listener, action, index)}. */
export function listenWithin(section, act) {
  section.addEventListener('click', event => {
    const button = event.target.closest('button[data-action]');
    const row = button && button.closest('tr[data-listener]');
    if (!row) {
      return;
    }
    const listener = { id: row.dataset.listener, queue: row.dataset.queue };
    const action = button.dataset.action;
    act(listener, action, action === 'seek-to-index' ? row.querySelector('input').value.trim() : undefined);
  });
}

/** Named tailers and their positions, listeners' included. */
export function renderTailers(section, overview) {
  const queues = overview.queues.filter(view => view.queue.namedTailers.length > 0);
  update(section, queues.length === 0 ? h('p', { class: 'muted' }, 'No named tailer in any queue.')
    : queues.map(view => h('article', { class: 'card', 'data-key': view.name },
      h('h2', null, view.name),
      table(['Name', 'Next index', 'Lag', 'Held by'], view.queue.namedTailers.map(t =>
        [t.name, index(t.nextIndex, t.nextIndexHex), count(t.lag), t.holder || h('span', { class: 'muted' }, 'nobody')]),
      'tailers'))));
}
