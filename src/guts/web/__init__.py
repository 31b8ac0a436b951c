"""The browser page: static files (HTML, CSS, JavaScript modules, SVG cards) that
``guts serve`` serves (:mod:`guts.server.pages`); no build step, no external requests."""
