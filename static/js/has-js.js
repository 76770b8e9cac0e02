/* Marks the page as scripted before it is drawn (loaded without defer), so the stylesheet can
 * hide what only a no-JavaScript visitor needs; a static file, as the CSP allows no inline script. */
document.documentElement.classList.add("js");
