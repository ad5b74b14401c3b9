/**
 * The part of the annotation page's script that keeps labels safe: localStorage first (a reload,
 * or a server that is down, loses nothing), then the server, re-sending until it confirms. Spliced
 * into the page script's closure, where `state`, `token`, `keyOf` and `setStatus` live.
 */
export const ANNOTATION_PAGE_SYNC = String.raw`
  function loadLocal() {
    try {
      return JSON.parse(localStorage.getItem(state.storageKey) || 'null') || {};
    } catch (error) {
      return {};
    }
  }
  function saveLocal() {
    const labels = {};
    for (const [key, label] of state.labels) labels[key] = label;
    try {
      localStorage.setItem(state.storageKey, JSON.stringify({ labels, position: { conversation: state.conversation, turn: state.turn } }));
    } catch (error) {
      setStatus('error', 'This browser could not keep the labels (' + error.message + '); they are still sent to the server.');
    }
  }

  /** Local and server labels: the later of the two wins; whatever the server lacks is sent again. */
  function merge(local, serverLabels) {
    const server = new Map(serverLabels.map((label) => [keyOf(label.conversationId, label.turnIndex), label]));
    for (const [key, label] of Object.entries(local.labels || {})) if (state.known.has(key)) state.labels.set(key, label);
    for (const [key, label] of server) {
      const mine = state.labels.get(key);
      if (!mine || Date.parse(mine.labelledAt) < Date.parse(label.labelledAt)) state.labels.set(key, label);
    }
    for (const [key, label] of state.labels) {
      const theirs = server.get(key);
      const differs = theirs ? theirs.score !== label.score || theirs.labelledAt !== label.labelledAt : label.score !== null;
      if (differs) state.pending.set(key, label);
    }
  }

  async function flush() {
    if (state.sending) return;
    state.sending = true;
    while (state.pending.size > 0) {
      const [key, label] = state.pending.entries().next().value;
      setStatus('saving', 'Saving...');
      let response = null;
      try {
        response = await fetch('/api/labels', { method: 'POST', headers: { 'content-type': 'application/json', 'x-pmiyc-token': token }, body: JSON.stringify(label) });
      } catch (error) {
        response = null;
      }
      if (response === null || response.status >= 500) {
        state.sending = false;
        setStatus('offline', 'The server cannot be reached: your labels are kept in this browser and will be sent when it is back.');
        clearTimeout(state.retry);
        state.retry = setTimeout(flush, 2000);
        return;
      }
      if (state.pending.get(key) === label) state.pending.delete(key);
      if (!response.ok) {
        const problem = await response.json().catch(() => ({}));
        state.failure = 'The server refused a label: ' + (problem.error || 'status ' + response.status);
      }
    }
    state.sending = false;
    if (state.failure) setStatus('error', state.failure);
    else setStatus('saved', 'All labels saved.');
  }

  async function getJson(path) {
    const response = await fetch(path, { headers: { 'x-pmiyc-token': token }, cache: 'no-store' });
    if (!response.ok) throw new Error(path + ' answered ' + response.status);
    return response.json();
  }

`;
