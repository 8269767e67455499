/** The stylesheet inlined into every trace page (no external fonts or assets). */
export const TRACE_STYLES = `
:root { --bg:#f6f7f9; --card:#fff; --ink:#1d2330; --muted:#667085; --line:#e3e6eb; --accent:#3b5bdb; --code:#0f1522; --code-ink:#e6e9ef; --tool:#f59f00; --ok:#2b8a3e; --bad:#c92a2a; --warn:#e67700; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink); font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; }
main { max-width:1080px; margin:0 auto; padding:28px 24px 60px; }
h1 { font-size:20px; margin:0 0 4px; } h2 { font-size:15px; margin:0; }
.muted { color:var(--muted); }
.summary { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:18px 20px; margin-bottom:18px; }
.question { font-size:16px; margin:8px 0 12px; white-space:pre-wrap; }
.stats { display:flex; flex-wrap:wrap; gap:8px 18px; color:var(--muted); font-size:13px; }
.stats b { color:var(--ink); font-weight:600; }
.badge { display:inline-block; padding:1px 8px; border-radius:999px; font-size:12px; font-weight:600; vertical-align:middle; }
.badge.final { background:#d3f9d8; color:var(--ok); } .badge.bad { background:#ffe3e3; color:var(--bad); } .badge.limit { background:#fff3bf; color:var(--warn); }
.answer { background:#f4fbf5; border:1px solid #b2f2bb; border-radius:10px; padding:14px 18px; margin-bottom:22px; }
.answer pre { margin:6px 0 0; white-space:pre-wrap; word-break:break-word; font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; }
.timeline { list-style:none; margin:0; padding:0 0 0 18px; border-left:2px solid var(--line); }
.turn { position:relative; margin:0 0 18px; }
.turn::before { content:""; position:absolute; left:-25px; top:14px; width:12px; height:12px; border-radius:50%; background:var(--accent); border:2px solid var(--bg); }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:12px 16px; }
.turn-head { display:flex; flex-wrap:wrap; align-items:baseline; gap:6px 14px; margin-bottom:8px; }
.turn-head .stats { font-size:12px; }
details { margin:6px 0; } summary { cursor:pointer; color:var(--muted); font-size:13px; }
pre { font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; }
.reply, .feedback, .json { background:#f8f9fb; border:1px solid var(--line); border-radius:6px; padding:8px 10px; white-space:pre-wrap; word-break:break-word; max-height:420px; overflow:auto; margin:6px 0 0; }
.reasoning { color:#5b6170; font-style:italic; }
.block { margin:10px 0 4px; }
.block-head { font-size:12px; color:var(--muted); margin-bottom:4px; }
.code { background:var(--code); color:var(--code-ink); border-radius:8px; padding:8px 0; overflow-x:auto; margin:0; }
.code .ln { display:block; padding:0 12px 0 0; white-space:pre; min-height:1.5em; }
.code .no { display:inline-block; width:3.2em; padding-right:12px; text-align:right; color:#5c6577; user-select:none; }
.code .ln.intercepted { background:rgba(245,159,0,.18); box-shadow:inset 3px 0 0 var(--tool); }
.code .ln.rejected { background:rgba(201,42,42,.25); box-shadow:inset 3px 0 0 var(--bad); }
.code .tag { margin-left:14px; padding:0 6px; border-radius:4px; background:var(--tool); color:#1d2330; font:600 11px/1.6 system-ui,sans-serif; }
.code .tag.bad { background:var(--bad); color:#fff; }
.tool { border-left:3px solid var(--tool); padding:2px 0 2px 10px; margin:8px 0; }
.tool .name { font:600 12.5px ui-monospace,Menlo,Consolas,monospace; }
.output { background:#f8f9fb; border:1px solid var(--line); border-left:3px solid var(--ok); border-radius:6px; padding:8px 10px; white-space:pre-wrap; word-break:break-word; margin:8px 0 0; max-height:360px; overflow:auto; }
.error { background:#fff5f5; border:1px solid #ffc9c9; border-left:3px solid var(--bad); border-radius:6px; padding:8px 10px; color:var(--bad); margin:8px 0 0; white-space:pre-wrap; word-break:break-word; }
.subcall { border:1px dashed #adb5bd; border-radius:8px; padding:6px 12px; margin:10px 0 0; background:#fbfbfd; }
.subcall > summary { color:var(--ink); font-weight:600; }
.subcall .timeline { margin-top:8px; }
.note { font-size:12px; color:var(--muted); margin:6px 0 0; }
footer { margin-top:28px; color:var(--muted); font-size:12px; }
`;
