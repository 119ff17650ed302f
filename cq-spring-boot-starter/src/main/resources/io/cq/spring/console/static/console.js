// The cq console: asks the application for its figures every refresh interval (polling: nothing stays open between
// two requests), shows them, and sends the write actions with the token the application gave the page.
import { renderQueues, renderListeners, renderTailers, listenWithin, replace, h } from './views.js';
import { ExcerptBrowser } from './excerpts.js';

const state = { overview: null, timer: null, started: performance.now() };
const status = document.getElementById('status');

/** Shows an error above the page (or clears it); a refresh that works again clears only its own. */
function report(message, source) {
  status.dataset.source = source || '';
  if (message) {
    status.hidden = false;
    replace(status, message);
  } else {
    status.hidden = true;
    status.replaceChildren();
  }
}

/** GETs JSON; rejects with the application's own error message when there is one. */
async function fetchJson(url) {
  const response = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  return answer(response);
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    // not JSON: a proxy's or a login page's answer
  }
  if (!response.ok) {
    throw (body && body.error) || (response.status + ' ' + response.statusText);
  }
  return body;
}

const browser = new ExcerptBrowser(document.getElementById('excerpts'), false, fetchJson, report);
const deadLetters = new ExcerptBrowser(document.getElementById('dead-letters'), true, fetchJson, report);

/** Sends a write action: a POST with a JSON body, the console's token and, with Spring Security, its CSRF token. */
async function act(listener, action, index) {
  const overview = state.overview;
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json',
    'X-CQ-Console-Token': overview.token };
  if (overview.springSecurity) {
    headers[overview.springSecurity.header] = overview.springSecurity.token;
  }
  const body = { action };
  if (index !== undefined) {
    if (!index) {
      report('Give the index to seek to.');
      return;
    }
    body.index = index;
  }
  try {
    const response = await fetch('api/queues/' + encodeURIComponent(listener.queue) + '/listeners/'
      + encodeURIComponent(listener.id), { method: 'POST', credentials: 'same-origin', headers,
      body: JSON.stringify(body) });
    await answer(response);
    report(null);
  } catch (message) {
    report('Could not ' + action + ' ' + listener.id + ': ' + message);
  }
  await refresh();
}

async function refresh() {
  try {
    const overview = await fetchJson('api/overview');
    state.overview = overview;
    show(overview);
    if (status.dataset.source === 'refresh') {
      report(null);
    }
  } catch (message) {
    report('Cannot reach the application: ' + message, 'refresh');
  }
}

function show(overview) {
  const mode = document.getElementById('mode');
  replace(mode, overview.writable ? 'read-write' : 'read-only');
  mode.title = overview.writable ? 'management.endpoint.queues.access=unrestricted: listeners can be paused, resumed '
    + 'and moved' : 'The queues endpoint is read-only (management.endpoint.queues.access): nothing can be changed here';
  renderQueues(document.getElementById('queues'), overview);
  renderListeners(document.getElementById('listeners'), overview);
  renderTailers(document.getElementById('tailers'), overview);
  const names = overview.queues.map(view => view.name);
  const firstTime = !browser.select.options.length;
  browser.setQueues(names);
  deadLetters.setQueues(overview.queues.filter(view => view.deadLetters).map(view => view.name));
  if (firstTime && names.length) {
    browser.load({ from: 'end' });
    if (deadLetters.select.value) {
      deadLetters.load({ from: 'end' });
    }
  }
  browser.refresh();
  deadLetters.refresh();
  replace(document.getElementById('refreshed'), 'Updated ' + new Date(overview.time).toLocaleTimeString()
    + ' (' + overview.serverMillis.toFixed(1) + ' ms in the application)');
  if (!document.body.dataset.loadedMs) {
    // how long the page took to show its first figures, for the tests and the curious
    document.body.dataset.loadedMs = String(Math.round(performance.now()));
  }
  document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
  if (!state.timer) {
    state.timer = setInterval(refresh, overview.refreshMillis);
  }
}

function showTab() {
  const tab = (location.hash || '#queues').substring(1);
  for (const section of document.querySelectorAll('main > section')) {
    section.hidden = section.dataset.view !== tab;
  }
  for (const link of document.querySelectorAll('#tabs a')) {
    link.classList.toggle('active', link.dataset.tab === tab);
  }
}

listenWithin(document.getElementById('listeners'), act);
window.addEventListener('hashchange', showTab);
showTab();
replace(document.getElementById('queues'), h('p', { class: 'loading' }, 'Loading…'));
refresh();
