/* "Check a photo": upload, camera capture or live camera -> /api/analyze -> result. */
"use strict";
(() => {
  const { $, send, render, showError, setupUpload, photoForm, setPhoto } = TTC;

  async function analyseFile(file) {
    document.body.dataset.state = "busy";
    setPhoto(file);
    try {
      render(await send("POST", "/api/analyze?view=1", photoForm(file)));
    } catch (e) {
      document.body.dataset.state = "error";
      showError(e.message);
    }
  }

  async function analyseBoard(board) {
    setPhoto(null);
    try { render(await send("POST", "/api/analyze?view=1", board, "Refereeing…")); }
    catch (e) { showError(e.message); }
  }

  /* Live camera: grab a frame, send it, show the verdict, repeat while the camera runs.
     One request at a time, so a slow reader never piles up frames. */
  let stream = null;
  async function startCamera() {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      showError("this browser gives no camera access here (it needs https or localhost)");
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1920 } }, audio: false });
    } catch (e) { showError("camera not available: " + e.message); return; }
    const video = $("camera");
    video.srcObject = stream;
    video.hidden = false;
    await video.play();
    $("camera-start").hidden = true;
    $("camera-stop").hidden = false;
    loop();
  }

  function stopCamera() {
    if (stream) stream.getTracks().forEach((t) => t.stop());
    stream = null;
    $("camera").hidden = true;
    $("camera-start").hidden = false;
    $("camera-stop").hidden = true;
  }

  async function loop() {
    while (stream) {
      const video = $("camera");
      const canvas = $("grab");
      if (video.videoWidth) {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        canvas.getContext("2d").drawImage(video, 0, 0);
        const blob = await new Promise((ok) => canvas.toBlob(ok, "image/jpeg", 0.9));
        if (blob && stream) {
          setPhoto(blob);
          try { render(await send("POST", "/api/analyze?view=1", photoForm(new File([blob], "frame.jpg", { type: "image/jpeg" })), "Reading the frame…")); showError(""); }
          catch (e) { showError(e.message); }
        }
      }
      await new Promise((ok) => setTimeout(ok, 1500));
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    setupUpload(analyseFile, analyseBoard);
    const start = $("camera-start");
    if (start) start.addEventListener("click", startCamera);
    const stop = $("camera-stop");
    if (stop) stop.addEventListener("click", stopCamera);
  });
})();
