import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import { guardedMethods } from 'build-time-data';

/**
 * Bulwark's limits: each with its effective values and the key each came from, and, refreshed
 * every second, what the store holds now (holders with their JVM, since and lease; the queue's
 * requests likewise, in order; available permits).
 */
export class QwcBulwarkLimits extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host {
            display: flex;
            flex-direction: column;
            gap: 1em;
            padding: 0.5em 1em;
        }
        .settings {
            color: var(--lumo-contrast-70pct);
        }
        .limit {
            border: 1px solid var(--lumo-contrast-10pct);
            border-radius: var(--lumo-border-radius-m);
            padding: 0.5em 1em;
        }
        .limit h3 {
            margin: 0.2em 0 0.5em 0;
        }
        .kind {
            color: var(--lumo-primary-text-color);
            font-weight: normal;
        }
        table {
            border-collapse: collapse;
            margin-bottom: 0.5em;
        }
        th, td {
            text-align: left;
            padding: 0.15em 1em 0.15em 0;
            vertical-align: top;
        }
        th {
            color: var(--lumo-contrast-60pct);
            font-weight: normal;
        }
        .source {
            color: var(--lumo-contrast-50pct);
        }
        .error {
            color: var(--lumo-error-text-color);
        }
        .none {
            color: var(--lumo-contrast-50pct);
        }
    `;

    static properties = {
        _page: { state: true },
        _error: { state: true },
        _inspected: { state: true }
    };

    constructor() {
        super();
        this._page = null;
        this._error = null;
        this._inspected = {};
    }

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
        this._timer = setInterval(() => this._refresh(), 1000);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _refresh() {
        this.jsonRpc.getLimits()
            .then(response => {
                this._page = response.result;
                this._error = null;
            })
            .catch(e => {
                this._error = QwcBulwarkLimits._message(e);
            });
    }

    render() {
        if (!this._page) {
            return html`
                <div class="settings">
                    ${guardedMethods.length} binding(s) found at build time; waiting for the application…
                </div>
                ${this._error ? html`<div class="error">${this._error}</div>` : ''}`;
        }
        const page = this._page;
        return html`
            <div class="settings" id="settings">
                Store <b>${page.store}</b>, failure policy ${page.failurePolicy}
                ${page.enabled ? '' : html`, <span class="error">disabled by bulwark.enabled=false</span>`}
                · ${page.limits.length} limit(s)
            </div>
            ${this._error ? html`<div class="error">${this._error}</div>` : ''}
            ${page.limits.length === 0 ? html`<div class="none">No limit is declared.</div>` : ''}
            ${page.limits.map(limit => this._renderLimit(limit))}`;
    }

    _renderLimit(limit) {
        return html`
            <div class="limit" data-kind="${limit.kind}" data-name="${limit.name}">
                <h3><span class="kind">${limit.kind}</span> ${limit.name}</h3>
                ${this._renderDeclarations(limit)}
                ${this._renderLive(limit)}
            </div>`;
    }

    _renderDeclarations(limit) {
        return html`
            <table class="declarations">
                <tr><th>declared on</th><th>effective values (and the key each came from)</th></tr>
                ${limit.declarations.map(d => html`
                    <tr>
                        <td><code>${d.on}</code></td>
                        <td>${d.disabledBy
                            ? html`<span class="error">disabled by ${d.disabledBy}</span>`
                            : d.members.map(m => html`
                                <span class="member">${m.member}=<b>${m.value}</b>
                                <span class="source">(${m.source})</span></span>&nbsp; `)}
                        </td>
                    </tr>`)}
            </table>`;
    }

    _renderLive(limit) {
        const live = limit.live;
        if (!live) {
            return html`<div class="none">Not enforced.</div>`;
        }
        if (live.error) {
            return html`<div class="error">Store: ${live.error}</div>`;
        }
        if (limit.kind === 'lock') {
            return this._renderLock(limit, live);
        }
        return html`
            <div class="state">
                limit <b>${live.limit}</b> · available <b class="available">${live.available}</b>
                ${live.queued !== null && live.queued !== undefined
                    ? html` · queued <b class="queued">${live.queued}</b>` : ''}
            </div>
            ${live.holders ? this._renderHolders(live.holders) : ''}
            ${live.waiting && live.waiting.length > 0 ? this._renderWaiting(live) : ''}`;
    }

    _renderWaiting(live) {
        const unlisted = live.queued - live.waiting.length;
        return html`
            <table class="waiting">
                <tr><th>queued (JVM), in order</th><th>request</th><th>queued since</th><th>lease until</th></tr>
                ${live.waiting.map(w => html`
                    <tr class="waiter">
                        <td><code>${w.jvm}</code></td>
                        <td>${w.request}</td>
                        <td>${w.since ?? '—'}</td>
                        <td>${w.leaseExpiry ?? 'does not expire'}</td>
                    </tr>`)}
            </table>
            ${unlisted > 0 ? html`<div class="none">and ${unlisted} more queued</div>` : ''}`;
    }

    _renderHolders(holders) {
        if (holders.length === 0) {
            return html`<div class="none">No holder.</div>`;
        }
        return html`
            <table class="holders">
                <tr><th>holder (JVM)</th><th>request</th><th>since</th><th>lease until</th></tr>
                ${holders.map(h => this._renderHolder(h))}
            </table>`;
    }

    _renderHolder(holder, role) {
        return html`
            <tr class="holder">
                <td>${role ? html`${role}: ` : ''}<code>${holder.jvm}</code></td>
                <td>${holder.request}</td>
                <td>${holder.since ?? '—'}</td>
                <td>${holder.leaseExpiry ?? 'does not expire'}</td>
            </tr>`;
    }

    _renderLock(limit, live) {
        const inspected = this._inspected[limit.name];
        const keys = live.keys.filter(k => !inspected || k.key !== inspected.key);
        if (inspected) {
            keys.unshift(inspected);
        }
        return html`
            ${keys.length === 0
                ? html`<div class="none">No key granted lately in this JVM.</div>`
                : html`
                    <table class="keys">
                        <tr><th>key</th><th>holder (JVM)</th><th>request</th><th>since</th><th>lease until</th><th>queued</th></tr>
                        ${keys.map(k => this._renderKey(k))}
                    </table>`}
            <div>
                <input type="text" placeholder="lock key" id="key-${limit.name}">
                <button @click=${() => this._inspect(limit.name)}>Inspect key</button>
            </div>`;
    }

    _renderKey(key) {
        const holders = [];
        if (key.writer) {
            holders.push(['writer', key.writer]);
        }
        key.readers.forEach(r => holders.push(['reader', r]));
        if (holders.length === 0) {
            return html`<tr><td><code>${key.key}</code></td><td class="none" colspan="4">free</td><td>${key.queued}</td></tr>`;
        }
        return holders.map(([role, h], i) => html`
            <tr class="holder">
                <td>${i === 0 ? html`<code>${key.key}</code>` : ''}</td>
                <td>${role}: <code>${h.jvm}</code></td>
                <td>${h.request}</td>
                <td>${h.since ?? '—'}</td>
                <td>${h.leaseExpiry ?? 'does not expire'}</td>
                <td>${i === 0 ? key.queued : ''}</td>
            </tr>`);
    }

    _inspect(lock) {
        const input = this.renderRoot.querySelector(`#key-${CSS.escape(lock)}`);
        const key = input ? input.value : '';
        this.jsonRpc.inspectLockKey({ lock: lock, key: key })
            .then(response => {
                this._inspected = { ...this._inspected, [lock]: response.result };
                this._error = null;
            })
            .catch(e => {
                this._error = QwcBulwarkLimits._message(e);
            });
    }

    static _message(e) {
        if (e && e.error && e.error.message) {
            return e.error.message;
        }
        return e && e.message ? e.message : String(e);
    }
}

customElements.define('qwc-bulwark-limits', QwcBulwarkLimits);
