// The person at the podium: when the debate waits for the person and this browser holds the seat,
// the task and a box to write in, with a live word count and the speaking time left.
const podium = document.getElementById('podium-body');
const runId = document.getElementById('run')?.dataset.runId;
const pageToken = document.querySelector('meta[name="agora-token"]')?.getAttribute('content') ?? '';
let shownTurn = null;
let sentTurn = null;

const element = (tag, attributes = {}, text) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
};

const wordsIn = (text) => text.split(/\s+/).filter((word) => word !== '').length;

function countLine(words, turn) {
  const left =
    typeof turn.secondsPerWord === 'number'
      ? `; about ${Math.max(0, Math.round((turn.limitWords - words) * turn.secondsPerWord))} s of speaking time left`
      : '';
  return `${words} of about ${turn.limitWords} words${left}`;
}

function showMessage(text) {
  shownTurn = null;
  podium.replaceChildren(element('p', { class: 'muted' }, text));
}

function showTurn(turn, seatLink) {
  if (shownTurn === turn.id) return;
  shownTurn = turn.id;
  const task = turn.task ?? {};
  const parts = [element('p', {}, 'Your turn to speak.')];
  if (task.motion) parts.push(element('p', {}, `Motion: ${task.motion}`));
  if (task.name || task.side) {
    parts.push(
      element('p', {}, `You speak as ${task.name ?? 'yourself'}${task.side ? `, for ${task.side}` : ''}.`),
    );
  }
  if (task.opponent) {
    parts.push(element('h3', {}, `${task.opponent.speaker} said`));
    const quote = element('blockquote', { class: 'statement' });
    for (const paragraph of task.opponent.text.split(/\n\s*\n/)) quote.append(element('p', {}, paragraph));
    parts.push(quote);
  }
  if (task.task) {
    const taskText = element('div', { class: 'podium-task' });
    for (const line of task.task.split('\n').filter((line) => line.trim() !== ''))
      taskText.append(element('p', {}, line));
    parts.push(taskText);
  }
  if (Array.isArray(task.judgedOn) && task.judgedOn.length > 0) {
    parts.push(element('h3', {}, 'The judges score your statement from 1 (poor) to 5 (excellent) on'));
    const criteria = element('ul', { class: 'podium-criteria' });
    for (const criterion of task.judgedOn) criteria.append(element('li', {}, criterion));
    parts.push(criteria);
  }
  const form = element('form', { id: 'podium-form' });
  const label = element('label', { for: 'podium-text' }, 'Your statement');
  const box = element('textarea', { id: 'podium-text', name: 'text', rows: '10' });
  const count = element(
    'p',
    { id: 'podium-count', class: 'muted', 'aria-live': 'polite' },
    countLine(0, turn),
  );
  const send = element('button', { class: 'primary', type: 'submit' }, 'Send my statement');
  const status = element('p', { id: 'podium-status', role: 'status', class: 'muted' });
  box.addEventListener('input', () => {
    count.textContent = countLine(wordsIn(box.value), turn);
  });
  form.append(label, box, count, send, status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    send.disabled = true;
    const response = await fetch(`/api/runs/${encodeURIComponent(runId)}/podium`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agora-token': pageToken },
      body: JSON.stringify({ turn: turn.id, text: box.value }),
    }).catch(() => null);
    const body = response ? await response.json().catch(() => ({})) : {};
    if (response?.ok) {
      sentTurn = turn.id;
      showMessage(body.message ?? 'Sent.');
    } else {
      send.disabled = false;
      status.textContent = body.error ?? 'The statement could not be sent; try again.';
    }
  });
  parts.push(form);
  // A link to this machine's own address opens nowhere else: offer it only when the viewer is
  // served beyond this machine.
  const loopback = ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(location.hostname);
  if (seatLink && !loopback) {
    parts.push(
      element(
        'p',
        { class: 'muted' },
        `To write from another device, open ${location.origin}${seatLink} there.`,
      ),
    );
  }
  podium.replaceChildren(...parts);
}

async function look() {
  const response = await fetch(`/api/runs/${encodeURIComponent(runId)}/podium`).catch(() => null);
  if (response?.ok) {
    const state = await response.json();
    if (['completed', 'degraded', 'failed'].includes(state.status)) {
      showMessage('The debate has ended: every statement is in the transcript below.');
      return;
    }
    if (state.status === 'stopped' && !state.waiting) {
      showMessage('The debate is stopped. Resume continues it from where it stood.');
      setTimeout(look, 1500);
      return;
    }
    if (state.waiting && state.turn && state.turn.id === sentTurn) {
      // Sent: the debate takes the statement in a moment.
    } else if (state.waiting && state.turn) showTurn(state.turn, state.seatLink);
    else if (state.waiting)
      showMessage(`The debate waits for ${state.speaker ?? 'the person at the podium'} to speak.`);
    else if (!state.mayWrite)
      showMessage('A person holds a seat in this debate; their statements appear in the transcript.');
    // The last statement sent is in the debate: say so until the next turn, rather than replace the
    // confirmation within a second of showing it.
    else if (sentTurn !== null)
      showMessage('Sent: your statement is in the debate. The box appears here when it is your turn again.');
    else showMessage('Not your turn yet: the box appears here when it is.');
  }
  setTimeout(look, 1500);
}

if (podium && runId) look();
