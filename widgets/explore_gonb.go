//go:build !(js && wasm)

package widgets

import (
	"github.com/janpfeifer/gonb/gonbui/dom"
	gw "github.com/janpfeifer/gonb/gonbui/widgets"

	"sodworkbench.org/workbench/widgets/internal/frontend"
)

// showControls shows Explore's controls with GoNB's widgets, each under
// its label (a value in the element labelIDs[i]) and returns, per control,
// the channel of its positions as the reader moves it.
func showControls(controls []Control, pos []int, labelIDs []string) []<-chan int {
	frontend.DisplayHTML(websocketBaseURLJS)
	root := dom.CreateTransientDiv()
	chans := make([]<-chan int, len(controls))
	for i, c := range controls {
		dom.Append(root, controlLabelHTML(c.Name, labelIDs[i], c.format(pos[i])))
		if len(c.Options) > 0 {
			escaped := make([]string, len(c.Options)) // gonb inserts the options as HTML
			for j, o := range c.Options {
				escaped[j] = escapeHTML(o)
			}
			sel := gw.Select(escaped).SetDefault(pos[i]).AppendTo(root).Done()
			chans[i] = sel.Listen().LatestOnly().C
		} else {
			sl := gw.Slider(0, c.positions()-1, pos[i]).AppendTo(root).Done()
			chans[i] = sl.Listen().LatestOnly().C
		}
	}
	return chans
}

// setLabel shows a control's new value in its label.
func setLabel(id, text string) {
	dom.TransientJavascript(setTextJS(id, text)) // not dom.SetInnerText: it lets "</script>" through
}

// websocketBaseURLJS lets GoNB's widgets reach their kernel when Jupyter is
// served under a base URL (JupyterHub's /user/NAME/) or over HTTPS: GoNB's
// front-end script opens ws://HOST/api/kernels/ID/channels, without the base
// URL and always unencrypted. Once per page, it makes the browser's WebSocket
// open such URLs under the page's base URL (JupyterLab's page config or
// Notebook 6's data-base-url) with wss: on HTTPS pages. Other URLs, and pages
// served at / over HTTP, are left alone.
const websocketBaseURLJS = `<script type="text/javascript">
(function () {
  if (window.sodWidgetsWebSocket) { return; }
  window.sodWidgetsWebSocket = true;
  var base = "/";
  try {
    var cfg = document.getElementById("jupyter-config-data");
    if (cfg) { base = JSON.parse(cfg.textContent).baseUrl || base; }
    else if (document.body && document.body.getAttribute("data-base-url")) { base = document.body.getAttribute("data-base-url"); }
  } catch (e) { return; }
  if (base.charAt(base.length - 1) !== "/") { base += "/"; }
  var secure = location.protocol === "https:";
  if (base === "/" && !secure) { return; }
  var gonb = "ws://" + location.host + "/api/kernels/", WS = window.WebSocket;
  var Patched = function (url, protocols) {
    if (typeof url === "string" && url.indexOf(gonb) === 0) {
      url = (secure ? "wss://" : "ws://") + location.host + base + url.slice(gonb.length - "api/kernels/".length);
    }
    return protocols === undefined ? new WS(url) : new WS(url, protocols);
  };
  Patched.prototype = WS.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (k) { Patched[k] = WS[k]; });
  window.WebSocket = Patched;
})();
</script>
`
