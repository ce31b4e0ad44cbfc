/// `/`: one small page, no external assets, readable on a phone. It reads /status every two
/// seconds and shows each output's state; the snapshot refreshes beside it when there is one.
enum StatusPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Camcast</title>
        <style>
        body{font:16px/1.4 system-ui,sans-serif;margin:0;padding:1em;background:#111;color:#eee;max-width:60em}
        h1{font-size:1.3em;margin:0 0 .5em}
        #summary{padding:.5em;border-radius:.3em;background:#333}
        .ok{background:#1b5e20!important}.bad{background:#8e1b1b!important}
        img{max-width:100%;margin:.8em 0;border:1px solid #444;display:none}
        table{border-collapse:collapse;width:100%;margin-top:.8em}
        td,th{padding:.3em .4em;border-bottom:1px solid #333;text-align:left;vertical-align:top;overflow-wrap:anywhere}
        #summary{overflow-wrap:anywhere}
        .state{font-weight:bold}.muted{color:#aaa;font-size:.9em}
        </style></head>
        <body><h1>Camcast</h1>
        <div id="summary">loading…</div>
        <img id="snapshot" alt="latest picture">
        <table><thead><tr><th>Output</th><th>State</th><th>Details</th></tr></thead><tbody id="outputs"></tbody></table>
        <p class="muted" id="facts"></p>
        <script>
        "use strict";
        function cell(row, text, cls) { const td = row.insertCell(); td.textContent = text; if (cls) td.className = cls; }
        function seconds(s) { s = Math.floor(s); return s < 120 ? s + " s" : s < 7200 ? Math.floor(s / 60) + " min" : Math.floor(s / 3600) + " h"; }
        async function refresh() {
          try {
            const response = await fetch("status", {cache: "no-store"});
            const status = await response.json();
            const summary = document.getElementById("summary");
            const more = status.problems.filter(problem => !status.summary.includes(problem));
            summary.textContent = status.summary + (more.length ? " — " + more.join("; ") : "");
            summary.className = status.healthy ? "ok" : "bad";
            const body = document.getElementById("outputs");
            body.replaceChildren();
            for (const output of status.outputs) {
              const row = body.insertRow();
              row.dataset.output = output.name;
              cell(row, output.name + " (" + output.kind + ")");
              // Resting outside its schedule's windows is on purpose, not a fault.
              const resting = output.phase === "scheduled";
              cell(row, output.phase + " for " + seconds(output.secondsInPhase), "state " + (output.up || resting ? "ok" : "bad"));
              let details = (output.sentBytes / 1e6).toFixed(1) + " MB sent, queue " + output.queueSeconds.toFixed(1) + " s";
              if (output.kind === "rtmp") details += ", " + output.connectAttempts + " attempts";
              if (output.schedule && !resting) details += "; " + output.schedule;
              if (output.lastError) details += (resting ? "; " : "; last error: ") + output.lastError;
              cell(row, details);
            }
            const p = status.pipeline;
            document.getElementById("facts").textContent = "source " + p.source + ", " + p.width + "x" + p.height + ", " + p.codec
              + ", version " + status.version + ", up " + seconds(status.uptimeSeconds);
            if (status.snapshot) {
              const image = document.getElementById("snapshot");
              image.src = "snapshot.jpg?t=" + Date.now();
              image.style.display = "block";
            }
          } catch (error) {
            document.getElementById("summary").textContent = "camcast does not answer";
          }
        }
        refresh();
        setInterval(refresh, 2000);
        </script></body></html>

        """
}
