// Runs before the body is parsed' scripts see it: fills #ext once the DOM is there.
window.appLoaded = true;
document.addEventListener('DOMContentLoaded', function () {
  document.querySelector('#ext').textContent = 'external script ran';
});
