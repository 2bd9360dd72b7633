// Progressive enhancement for the Trademark Watch dashboard. Every page works without this file
// except copy-to-clipboard; with it, keys are revoked in place through the API.
(() => {
  const live = document.getElementById('live-region');

  /** Says something to screen-reader users without moving focus. */
  function announce(text) {
    if (!live) return;
    live.textContent = '';
    window.setTimeout(() => {
      live.textContent = text;
    }, 50);
  }

  const MONTHS = [
    'Jan',
    'Feb',
    'Mar',
    'Apr',
    'May',
    'Jun',
    'Jul',
    'Aug',
    'Sep',
    'Oct',
    'Nov',
    'Dec',
  ];
  const pad = (n) => String(n).padStart(2, '0');
  // The server's format (views/format.ts): "22 Nov 2026, 09:30 UTC".
  function formatDateTime(iso) {
    const d = new Date(iso);
    return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
  }

  // Copy buttons are hidden until this script can make them work.
  for (const button of document.querySelectorAll('[data-copy-target]')) {
    const field = document.getElementById(button.dataset.copyTarget);
    if (!field) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(field.value);
      } catch {
        field.select();
        document.execCommand('copy');
      }
      button.textContent = 'Copied';
      announce('The key was copied to the clipboard.');
      window.setTimeout(() => {
        button.textContent = 'Copy';
      }, 2000);
    });
  }

  // Revoke through DELETE /api/v1/api-keys/{id}, with the page's CSRF token in a header. Without
  // this script the same button posts its form to the dashboard, which revokes the same way.
  for (const form of document.querySelectorAll('form[data-revoke-key]')) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const name = form.dataset.keyName ?? 'this key';
      if (!window.confirm(`Revoke the key “${name}”? Clients using it stop working immediately.`)) {
        return;
      }
      const button = form.querySelector('button');
      const token = form.querySelector('input[name="_csrf"]')?.value ?? '';
      if (button) button.disabled = true;
      let response;
      try {
        response = await fetch(`/api/v1/api-keys/${encodeURIComponent(form.dataset.revokeKey)}`, {
          method: 'DELETE',
          credentials: 'same-origin',
          headers: { Accept: 'application/json', 'X-CSRF-Token': token },
        });
      } catch {
        if (button) button.disabled = false;
        announce('The key could not be revoked: the network request failed. Try again.');
        return;
      }
      if (response.status === 401) {
        window.location.assign('/sign-in?notice=session-ended');
        return;
      }
      if (!response.ok) {
        if (button) button.disabled = false;
        announce('The key could not be revoked. Reload the page and try again.');
        return;
      }
      const { data } = await response.json();
      const row = form.closest('tr');
      const status = row?.querySelector('[data-key-status]');
      if (row && status) {
        const pill = document.createElement('span');
        pill.className = 'pill pill--neutral';
        pill.textContent = 'Revoked';
        const time = document.createElement('time');
        time.dateTime = data.revokedAt;
        time.textContent = formatDateTime(data.revokedAt);
        status.replaceChildren(pill, ' ', time);
        row.classList.add('is-revoked');
      }
      form.remove();
      announce(`The key “${data.name}” was revoked. Requests that use it are refused from now on.`);
    });
  }

  // The phone menu: the navigation and the account fold behind a button on narrow screens (the
  // stylesheet decides when; this only opens and closes it). Escape closes it and returns focus.
  const toggle = document.querySelector('.nav-toggle');
  const menu = document.getElementById('site-menu');
  if (toggle && menu) {
    toggle.hidden = false;
    toggle.closest('.site-header')?.classList.add('site-header--menu');
    const setOpen = (open) => {
      toggle.setAttribute('aria-expanded', String(open));
      menu.classList.toggle('is-open', open);
    };
    toggle.addEventListener('click', () => {
      setOpen(toggle.getAttribute('aria-expanded') !== 'true');
    });
    menu.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && toggle.getAttribute('aria-expanded') === 'true') {
        setOpen(false);
        toggle.focus();
      }
    });
  }

  // The review desk's filters come open; on a phone (the stylesheet's 48rem) they fold behind their
  // summary, which says how many are on, so that the first alerts are on the first screen.
  if (window.matchMedia('(max-width: 48rem)').matches) {
    for (const details of document.querySelectorAll('details[data-fold-narrow]')) {
      details.open = false;
    }
  }

  // "Select all on this page" for bulk triage; it mirrors the row checkboxes (mixed when some are
  // ticked). Without this script the rows are ticked one by one.
  const selectAll = document.querySelector('[data-select-all]');
  if (selectAll) {
    const items = [...document.querySelectorAll('[data-bulk-item]')];
    const wrap = selectAll.closest('[data-select-all-wrap]');
    if (wrap) wrap.hidden = false;
    const sync = () => {
      const ticked = items.filter((item) => item.checked).length;
      selectAll.checked = ticked > 0 && ticked === items.length;
      selectAll.indeterminate = ticked > 0 && ticked < items.length;
    };
    selectAll.addEventListener('change', () => {
      for (const item of items) item.checked = selectAll.checked;
      announce(selectAll.checked ? `${items.length} alerts selected.` : 'No alerts selected.');
    });
    for (const item of items) item.addEventListener('change', sync);
    sync();
  }
})();
